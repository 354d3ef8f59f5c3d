package dev.sluice.config.internal;

import dev.sluice.config.Interval;
import dev.sluice.config.Secret;
import dev.sluice.config.ServiceConfig;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/** Reads the {@code service:} section (the cluster job store of {@code sluice serve}). */
final class ServiceReader {
  private static final Pattern INSTANCE_ID = Pattern.compile("[A-Za-z0-9._-]{1,80}");
  private static final Duration MIN_CHECKIN = Duration.ofMillis(100);
  static final String URL_HINT = "e.g. url: jdbc:postgresql://db.example.com:5432/sluice or url: ${env:SLUICE_DB_URL}";

  private ServiceReader() {}

  /** The section, or null when a problem was found. */
  static Optional<ServiceConfig> read(Fields service) {
    if (service == null) {
      return null;
    }
    ServiceConfig.JobStore store = service.require("job_store", "e.g. job_store: {url: ${env:SLUICE_DB_URL}, user:"
        + " sluice, password: ${env:SLUICE_DB_PASSWORD}}") ? jobStore(service.object("job_store",
            "a mapping with `url:`, `user:` and `password:`")) : null;
    Optional<String> instanceId = service.optionalString("instance_id");
    boolean idOk = instanceId.map(id -> {
      if (INSTANCE_ID.matcher(id.strip()).matches() && !id.strip().equals("AUTO")) {
        return true;
      }
      service.problem("instance_id", "`" + id + "` is not a node name: use letters, digits, `.`, `_` and `-` (at most"
          + " 80)", "give each node its own name, e.g. instance_id: ${env:HOSTNAME}, or leave it out for a generated one");
      return false;
    }).orElse(true);
    Interval checkin = service.has("checkin_interval") ? service.interval("checkin_interval")
        : Intervals.parse(ServiceConfig.DEFAULT_CHECKIN_INTERVAL);
    if (checkin != null && checkin.duration().compareTo(MIN_CHECKIN) < 0) {
      service.problem("checkin_interval", "must be at least 100 ms, got " + checkin.text(),
          "e.g. checkin_interval: 7 seconds (a node silent for about twice as long is taken for dead)");
      checkin = null;
    }
    if (store == null || !idOk || checkin == null) {
      return null;
    }
    return Optional.of(new ServiceConfig(store, instanceId.map(String::strip), checkin));
  }

  private static ServiceConfig.JobStore jobStore(Fields store) {
    if (store == null) {
      return null;
    }
    String url = store.requiredString("url", URL_HINT);
    if (url != null && !url.strip().startsWith("jdbc:postgresql://")) {
      // never echo a URL that may carry credentials
      String shown = url.contains("@") || url.contains("password") ? "the url" : "`" + url + "`";
      store.problem("url", shown + " is not a PostgreSQL JDBC URL: the cluster job store runs on PostgreSQL only",
          URL_HINT);
      url = null;
    } else if (url != null && url.contains("password=")) {
      store.problem("url", "the url must not carry the password", "write it as password: ${env:SLUICE_DB_PASSWORD}");
      url = null;
    }
    Optional<String> user = store.optionalString("user");
    Optional<Secret> password = ConfigReader.secret(store, "password", "SLUICE_DB_PASSWORD");
    boolean passwordOk = !store.has("password") || password.isPresent();
    Integer pool = store.has("pool_size") ? store.integer("pool_size", 2)
        : Integer.valueOf(ServiceConfig.JobStore.DEFAULT_POOL_SIZE);
    if (url == null || !passwordOk || pool == null) {
      return null;
    }
    return new ServiceConfig.JobStore(url.strip(), user.map(String::strip), password, pool);
  }
}
