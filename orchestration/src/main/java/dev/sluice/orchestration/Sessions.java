package dev.sluice.orchestration;

import dev.sluice.config.SluiceConfig;
import dev.sluice.config.StorageConfig;
import dev.sluice.ingestion.SluiceSession;

/** Opens an engine session with a configuration's storage settings. */
public final class Sessions {
  private Sessions() {}

  public static SluiceSession forConfig(SluiceConfig config) {
    return builder(config).build();
  }

  /** A session builder with the configuration's storage settings, for callers that add more (store wrappers). */
  public static SluiceSession.Builder builder(SluiceConfig config) {
    SluiceSession.Builder b = SluiceSession.builder();
    StorageConfig s = config.storage();
    if (s != null) {
      s.endpoint().ifPresent(e -> b.storageOption("endpoint", e.toString()));
      s.region().ifPresent(r -> b.storageOption("region", r));
      b.storageOption("path-style", Boolean.toString(s.pathStyle()));
      s.accessKeyId().ifPresent(k -> b.storageOption("access-key-id", k.value()));
      s.secretAccessKey().ifPresent(k -> b.storageOption("secret-access-key", k.value()));
      StorageConfig.Timeouts t = s.timeouts();
      t.connection().ifPresent(i -> b.storageOption("connection-timeout", i.duration().toMillis() + "ms"));
      t.socket().ifPresent(i -> b.storageOption("socket-timeout", i.duration().toMillis() + "ms"));
      t.attempt().ifPresent(i -> b.storageOption("attempt-timeout", i.duration().toMillis() + "ms"));
    }
    return b;
  }
}
