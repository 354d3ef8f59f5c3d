package dev.sluice.config.internal;

import dev.sluice.config.Defaults;
import dev.sluice.config.Interval;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.ScheduleConfig;
import dev.sluice.config.Secret;
import dev.sluice.config.ServiceConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.StorageConfig;
import dev.sluice.config.TriggerConfig;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** Turns the YAML tree into a {@link SluiceConfig}, recording every problem instead of stopping at the first. */
final class ConfigReader {
  private final Fields.Context context;

  ConfigReader(Problems problems, EnvInterpolator env) {
    this.context = new Fields.Context(problems, env);
  }

  /** The config, or null when any problem was found. */
  SluiceConfig read(YamlNode root) {
    Fields fields = Fields.of(root, "", ConfigShape.ROOT, context, "a mapping with `warehouse:` and `pipelines:`");
    if (fields == null) {
      return null;
    }
    URI warehouse = warehouse(fields);
    StorageConfig storage = fields.has("storage") ? storage(fields.object("storage", "a mapping of S3 settings"))
        : StorageConfig.none();
    Defaults defaults = fields.has("defaults") ? defaults(fields.object("defaults", "a mapping of defaults"))
        : Defaults.standard();
    // Pipelines are still read when the defaults are broken, so that their problems are reported too.
    List<PipelineConfig> pipelines = pipelines(fields, defaults == null ? Defaults.standard() : defaults);
    Optional<ServiceConfig> service = fields.has("service")
        ? ServiceReader.read(fields.object("service", "a mapping with `job_store:`")) : Optional.empty();
    if (!context.problems().isEmpty() || warehouse == null || storage == null || defaults == null || service == null) {
      return null;
    }
    return new SluiceConfig(warehouse, storage, defaults, pipelines, service);
  }

  private URI warehouse(Fields root) {
    String text = root.requiredString("warehouse", "e.g. warehouse: file:///var/lib/sluice or s3://bucket/prefix");
    if (text == null) {
      return null;
    }
    String credentials = Checks.credentialsInUri(text, "warehouse");
    if (credentials != null) {
      root.problem("warehouse", credentials, Checks.CREDENTIALS_HINT);
      return null;
    }
    String error = Checks.warehouse(text);
    if (error != null) {
      root.problem("warehouse", error, "e.g. file:///var/lib/sluice/warehouse, /var/lib/sluice/warehouse or"
          + " s3://my-bucket/warehouse");
      return null;
    }
    return Checks.warehouseUri(text);
  }

  private StorageConfig storage(Fields storage) {
    if (storage == null) {
      return null;
    }
    Optional<URI> endpoint = storage.optionalString("endpoint").map(text -> endpoint(storage, text));
    Optional<String> region = storage.optionalString("region");
    Boolean pathStyle = storage.has("path_style") ? storage.bool("path_style") : Boolean.FALSE;
    Optional<Secret> accessKey = secret(storage, "access_key_id", "AWS_ACCESS_KEY_ID");
    Optional<Secret> secretKey = secret(storage, "secret_access_key", "AWS_SECRET_ACCESS_KEY");
    Optional<Secret> token = secret(storage, "session_token", "AWS_SESSION_TOKEN");
    if (storage.has("access_key_id") != storage.has("secret_access_key")) {
      storage.problem(storage.has("access_key_id") ? "secret_access_key" : "access_key_id",
          "required when the other S3 key is given", "give both access_key_id and secret_access_key, or neither"
              + " (to use the AWS default credential chain)");
    }
    if (storage.has("session_token") && !storage.has("access_key_id")) {
      storage.problem("session_token", "a session token needs access_key_id and secret_access_key", "");
    }
    StorageConfig.Timeouts timeouts = new StorageConfig.Timeouts(timeout(storage, "connection_timeout"),
        timeout(storage, "socket_timeout"), timeout(storage, "attempt_timeout"));
    return pathStyle == null ? null
        : new StorageConfig(endpoint, region, pathStyle, accessKey,
            secretKey, token, timeouts);
  }

  private static Optional<Interval> timeout(Fields storage, String key) {
    Interval interval = storage.interval(key);
    if (interval != null && (interval.duration().isZero() || interval.duration().isNegative())) {
      storage.problem(key, "a timeout must be longer than 0", "e.g. " + key + ": 30 seconds");
      return Optional.empty();
    }
    return Optional.ofNullable(interval);
  }

  private static URI endpoint(Fields storage, String text) {
    try {
      URI uri = new URI(text.strip());
      if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
        return uri;
      }
    } catch (java.net.URISyntaxException e) {
      // reported below, like any other endpoint that is not an http(s) URL
    }
    storage.problem("endpoint", "`" + text + "` is not an http:// or https:// URL", "e.g. http://127.0.0.1:9000");
    return null;
  }

  /** A credential: only a bare {@code ${env:NAME}} is accepted, so that no secret is ever written in the file. */
  static Optional<Secret> secret(Fields storage, String key, String exampleVariable) {
    String raw = storage.rawText(key);
    if (raw == null) {
      if (storage.has(key)) {
        storage.problem(key, "expected ${env:NAME}, got " + storage.raw(key).describe(), "");
      }
      return Optional.empty();
    }
    Optional<String> variable = EnvInterpolator.soleReference(raw);
    if (variable.isEmpty()) {
      // Never echo the value: it may be a real secret.
      String message = raw.contains("${env:") && raw.contains(":-")
          ? "a credential must not have a default value: the default would put the secret in the file"
          : "a literal credential is refused: credentials are read only from environment variables";
      storage.problem(key, message, "write " + key + ": ${env:NAME} and set NAME in the environment, e.g. ${env:"
          + exampleVariable + "}");
      return Optional.empty();
    }
    String value = storage.string(key);
    return value == null ? Optional.empty() : Optional.of(new Secret(variable.get(), value));
  }

  private Defaults defaults(Fields defaults) {
    if (defaults == null) {
      return null;
    }
    TriggerConfig trigger = defaults.has("trigger") ? trigger(defaults, "trigger")
        : Defaults.standard().trigger();
    Integer maxFiles = defaults.has("max_files_per_trigger") ? defaults.integer("max_files_per_trigger", 1) : null;
    Integer retain = defaults.has("min_batches_to_retain") ? defaults.integer("min_batches_to_retain", 1)
        : Integer.valueOf(Defaults.DEFAULT_MIN_BATCHES_TO_RETAIN);
    MaintenanceReader.Read maintenance = MaintenanceReader.read(defaults);
    dev.sluice.config.StateStoreConfig stateStore = StateStoreReader.read(defaults, "state_store",
        dev.sluice.config.StateStoreConfig.inMemory());
    if (trigger == null || retain == null || maintenance == null || stateStore == null
        || (defaults.has("max_files_per_trigger") && maxFiles == null)) {
      return null;
    }
    return new Defaults(trigger, maxFiles == null ? OptionalInt.empty() : OptionalInt.of(maxFiles), retain,
        maintenance.over(dev.sluice.config.MaintenanceConfig.none()), stateStore);
  }

  /** {@code available_now}, {@code once}, or {@code {processing_time: 30 seconds}}. */
  static TriggerConfig trigger(Fields owner, String key) {
    String path = owner.path(key);
    YamlNode node = owner.raw(key);
    String expected = "available_now, once or {processing_time: <interval>}";
    if (node instanceof YamlNode.MapNode) {
      Fields fields = Fields.of(node, path, ConfigShape.TRIGGER, contextOf(owner), "a trigger");
      if (fields == null || !fields.require("processing_time", "e.g. {processing_time: 30 seconds}")) {
        return null;
      }
      Interval interval = fields.interval("processing_time");
      return interval == null ? null : new TriggerConfig.ProcessingTime(interval);
    }
    String text = owner.string(key);
    if (text == null) {
      if (!(node instanceof YamlNode.ScalarNode)) {
        owner.problem(key, "expected " + expected + ", got " + node.describe(), "");
      }
      return null;
    }
    switch (text.strip()) {
      case Names.AVAILABLE_NOW:
        return new TriggerConfig.AvailableNow();
      case Names.ONCE:
        return new TriggerConfig.Once();
      default:
        String hint = text.strip().startsWith("processing_time")
            ? "write the interval as a mapping: trigger: {processing_time: 30 seconds}"
            : Suggestions.didYouMean(text.strip(), List.of(Names.AVAILABLE_NOW, Names.ONCE, "processing_time"));
        owner.problem(key, "`" + text + "` is not a trigger: use " + expected, hint);
        return null;
    }
  }

  static Optional<ScheduleConfig> schedule(Fields schedule) {
    if (schedule == null) {
      return null;
    }
    boolean cron = schedule.has("cron");
    if (cron == schedule.has("every")) {
      schedule.problem(cron ? "every" : "cron", cron ? "give either `cron` or `every`, not both"
          : "required: `cron` or `every`", "e.g. schedule: {cron: \"0 */5 * * * ?\"} or schedule: {every: 5 minutes}");
      return null;
    }
    if (cron) {
      String expression = schedule.string("cron");
      String error = expression == null ? null : Checks.cron(expression);
      if (error != null) {
        schedule.problem("cron", error, "e.g. \"0 */5 * * * ?\" (every 5 minutes)");
      }
      return expression == null || error != null ? null
          : Optional.of(new ScheduleConfig.Cron(expression.strip()));
    }
    Interval every = schedule.interval("every");
    return every == null ? null : Optional.of(new ScheduleConfig.Every(every));
  }

  private List<PipelineConfig> pipelines(Fields root, Defaults defaults) {
    if (!root.require("pipelines", "list the pipelines: pipelines: [{name: …, layer: bronze, …}]")) {
      return List.of();
    }
    List<Fields> items = root.objects("pipelines", "pipelines");
    if (items.isEmpty() && root.raw("pipelines") instanceof YamlNode.ListNode) {
      root.problem("pipelines", "must hold at least one pipeline", "");
    }
    Map<String, String> sinkTables = sinkTables(items);
    List<PipelineRef> refs = new ArrayList<>();
    List<PipelineConfig> pipelines = new ArrayList<>();
    for (Fields item : items) {
      PipelineReader reader = new PipelineReader(item, indexOf(item), defaults, sinkTables);
      PipelineConfig pipeline = reader.read();
      refs.add(reader.ref());
      if (pipeline != null) {
        pipelines.add(pipeline);
      }
    }
    ReferenceChecker.check(refs, root.problems());
    return pipelines;
  }

  /** Each pipeline's sink table by name, read quietly ahead so that sources may name later pipelines. */
  private Map<String, String> sinkTables(List<Fields> items) {
    Map<String, String> tables = new HashMap<>();
    Fields.Context quiet = new Fields.Context(new Problems(), context.env());
    for (Fields item : items) {
      YamlNode sink = item.raw("sink");
      if (item.has("name") && sink instanceof YamlNode.MapNode) {
        String name = quietString(item.raw("name"), quiet);
        String table = quietString(((YamlNode.MapNode) sink).entries().get("table"), quiet);
        if (name != null && table != null) {
          tables.putIfAbsent(name, table.strip());
        }
      }
    }
    return tables;
  }

  private static String quietString(YamlNode node, Fields.Context quiet) {
    return node instanceof YamlNode.ScalarNode && !((YamlNode.ScalarNode) node).isNull()
        ? quiet.env().resolve(((YamlNode.ScalarNode) node).text(), "", quiet.problems()) : null;
  }

  private static int indexOf(Fields item) {
    String path = item.path();
    return Integer.parseInt(path.substring(path.lastIndexOf('[') + 1, path.length() - 1));
  }

  private static Fields.Context contextOf(Fields owner) {
    return owner.context();
  }
}
