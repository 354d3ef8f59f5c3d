package dev.sluice.config.internal;

import dev.sluice.config.AggregateConfig;
import dev.sluice.config.AggregateOutputMode;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.DedupConfig;
import dev.sluice.config.Defaults;
import dev.sluice.config.DerivedColumn;
import dev.sluice.config.Expectation;
import dev.sluice.config.ExpectationAction;
import dev.sluice.config.Interval;
import dev.sluice.config.JoinConfig;
import dev.sluice.config.JoinRefresh;
import dev.sluice.config.JoinType;
import dev.sluice.config.KafkaSourceConfig;
import dev.sluice.config.Layer;
import dev.sluice.config.MergeConfig;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.ProcessConfig;
import dev.sluice.config.ScheduleConfig;
import dev.sluice.config.SchemaEvolution;
import dev.sluice.config.SessionWindowConfig;
import dev.sluice.config.SinkConfig;
import dev.sluice.config.SourceConfig;
import dev.sluice.config.StreamJoinConfig;
import dev.sluice.config.SourceFormat;
import dev.sluice.config.TriggerConfig;
import dev.sluice.config.WatermarkConfig;
import dev.sluice.config.WindowConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one entry of {@code pipelines:} with its layer's rules. Each part returns null when it has a problem, so
 * nothing half-valid is built; {@link #ref()} still carries what the cross-pipeline checks need.
 */
final class PipelineReader {
  private final Fields pipeline;
  private final int index;
  private final Defaults defaults;
  private final Map<String, String> sinkTables;
  private final Problems problems;

  private String name;
  private Layer layer;
  private String sourcePipeline;
  private final Map<Integer, String> joinPipelines = new LinkedHashMap<>();
  private List<String> after = List.of();
  private String sinkTable;
  private String streamJoinPipeline;

  PipelineReader(Fields pipeline, int index, Defaults defaults, Map<String, String> sinkTables) {
    this.pipeline = pipeline;
    this.index = index;
    this.defaults = defaults;
    this.sinkTables = sinkTables;
    this.problems = pipeline.problems();
  }

  PipelineRef ref() {
    return new PipelineRef(index, name, layer, sourcePipeline, joinPipelines, after, sinkTable, streamJoinPipeline);
  }

  PipelineConfig read() {
    int before = problems.size();
    name = pipeline.requiredString("name", "e.g. name: orders_bronze");
    if (name != null && Checks.pipelineName(name) != null) {
      pipeline.problem("name", Checks.pipelineName(name), "e.g. orders_silver");
    }
    if (pipeline.require("layer", "one of: bronze, silver, gold")) {
      layer = pipeline.choice("layer", Names.LAYERS, null);
    }
    checkLayerKeys();
    SourceConfig source = pipeline.require("source", sourceHint())
        ? source(pipeline.object("source", "a mapping describing the input")) : null;
    Optional<ProcessConfig> process = allowed("process") && pipeline.has("process")
        ? Optional.ofNullable(process(pipeline.object("process", "a mapping {class, keys, output_mode, timeout}")))
        : Optional.empty();
    Optional<StreamJoinConfig> joinStream = allowed("join_stream") && pipeline.has("join_stream")
        ? Optional.ofNullable(joinStream(pipeline.object("join_stream", "a mapping {pipeline, keys, within,"
            + " left_watermark, right_watermark}"))) : Optional.empty();
    if (pipeline.has("join_stream") && pipeline.has("process")) {
      pipeline.problem("join_stream", "a pipeline has either `process` or `join_stream`, not both",
          "join in one silver pipeline and process its table in the next");
    }
    List<JoinConfig> joins = allowed("joins") ? joins() : List.of();
    List<DerivedColumn> columns = allowed("columns") ? columns() : List.of();
    Optional<String> filter = allowed("filter") ? pipeline.optionalString("filter") : Optional.empty();
    List<Expectation> expectations = allowed("expectations") ? expectations() : List.of();
    Optional<DedupConfig> dedup = allowed("dedup") && pipeline.has("dedup")
        ? Optional.ofNullable(dedup(pipeline.object("dedup", "a mapping {keys, watermark}"))) : Optional.empty();
    Optional<AggregateConfig> aggregate = aggregate();
    SinkConfig sink = pipeline.require("sink", "e.g. sink: {table: silver/orders}")
        ? sink(pipeline.object("sink", "a mapping {table, partition_by, merge}")) : null;
    TriggerConfig trigger = pipeline.has("trigger") ? ConfigReader.trigger(pipeline, "trigger") : defaults.trigger();
    Optional<ScheduleConfig> schedule = pipeline.has("schedule")
        ? ConfigReader.schedule(pipeline.object("schedule", "a schedule {cron} or {every}")) : Optional.empty();
    after = pipeline.strings("after", "pipeline names");
    MaintenanceReader.Read maintenance = MaintenanceReader.read(pipeline);
    dev.sluice.config.StateStoreConfig stateStore = allowed("state_store")
        ? StateStoreReader.read(pipeline, "state_store", defaults.stateStore()) : defaults.stateStore();
    if (problems.size() > before || maintenance == null || stateStore == null) {
      return null;
    }
    return new PipelineConfig(name, layer, source, columns, filter, expectations, dedup, joins, aggregate, sink,
        trigger, schedule, after, maintenance.over(defaults.maintenance()), stateStore, process, joinStream);
  }

  private boolean allowed(String key) {
    return layer == null || LayerRules.allowsPipelineKey(layer, key);
  }

  private void checkLayerKeys() {
    if (layer == null) {
      return;
    }
    for (String key : pipeline.writtenKeys()) {
      if (!LayerRules.allowsPipelineKey(layer, key)) {
        pipeline.problem(key, "`" + key + "` is not allowed in a " + layer.yamlName() + " pipeline",
            LayerRules.pipelineKeyHint(key));
      }
    }
    if (layer == Layer.GOLD && !pipeline.has("aggregate")) {
      pipeline.problem("aggregate", "required in a gold pipeline",
          "e.g. aggregate: {group_by: [tier], measures: [\"sum(amount) AS revenue\"]}");
    }
  }

  private String sourceHint() {
    return layer == Layer.BRONZE || layer == null ? "e.g. source: {format: json, path: data/input}"
        : "e.g. source: {pipeline: orders_bronze}";
  }

  // ---- source

  private SourceConfig source(Fields source) {
    if (source == null || layer == null) {
      return null;
    }
    int before = problems.size();
    for (String key : source.writtenKeys()) {
      if (!LayerRules.allowsSourceKey(layer, key)) {
        source.problem(key, "`" + key + "` is not allowed in the source of a " + layer.yamlName() + " pipeline",
            LayerRules.sourceKeyHint(layer));
      }
    }
    Map<String, String> options = source.options("options");
    boolean kafka = layer == Layer.BRONZE && "kafka".equals(source.has("format") ? source.string("format") : null);
    if (!kafka) {
      defaults.maxFilesPerTrigger().ifPresent(n -> options.putIfAbsent("maxFilesPerTrigger", String.valueOf(n)));
    }
    SourceConfig config = kafka ? kafkaSource(source, options)
        : layer == Layer.BRONZE ? fileSource(source, options) : tableSource(source, options);
    return problems.size() > before ? null : config;
  }

  private SourceConfig kafkaSource(Fields source, Map<String, String> options) {
    for (String key : source.writtenKeys()) {
      if (!LayerRules.KAFKA_SOURCE_KEYS.contains(key)) {
        source.problem(key, "`" + key + "` is not used by a kafka source", "a kafka source takes "
            + String.join(", ", new java.util.TreeSet<>(LayerRules.KAFKA_SOURCE_KEYS)));
      }
    }
    String servers = source.requiredString("bootstrap_servers", "e.g. bootstrap_servers: ${env:KAFKA_BROKERS:-localhost:9092}");
    List<String> topicNames = source.requiredStrings("topics", "topic names", "e.g. topics: [orders]");
    KafkaSourceConfig.ValueFormat valueFormat = source.choice("value_format", Names.VALUE_FORMATS,
        KafkaSourceConfig.ValueFormat.JSON);
    List<ColumnSpec> schema = schema(source, "schema");
    if (valueFormat != null && valueFormat != KafkaSourceConfig.ValueFormat.TEXT && schema.isEmpty()
        && !source.has("schema")) {
      source.problem("schema", "required for value_format " + valueFormat.yamlName() + ": Kafka values carry no"
          + " schema to infer", "e.g. schema: [{name: id, type: long}, {name: status, type: string}]");
    }
    SchemaEvolution evolution = source.choice("schema_evolution", Names.SCHEMA_EVOLUTIONS, SchemaEvolution.RESCUE);
    Optional<String> starting = source.optionalString("starting_offsets");
    Integer maxOffsets = source.has("max_offsets_per_trigger") ? source.integer("max_offsets_per_trigger", 1) : null;
    kafkaSecrets(source);
    if (servers == null || topicNames == null || valueFormat == null || evolution == null
        || (source.has("max_offsets_per_trigger") && maxOffsets == null)) {
      return null;
    }
    KafkaSourceConfig kafka = new KafkaSourceConfig(servers.strip(), topicNames, valueFormat,
        starting.map(String::strip), Optional.ofNullable(maxOffsets).map(Integer::longValue));
    return new SourceConfig(SourceFormat.KAFKA, Optional.empty(), Optional.empty(), Optional.empty(), options, schema,
        evolution, Optional.of(kafka));
  }

  /** SASL/SSL credentials among the client options only as {@code ${env:NAME}}, never written in the file. */
  private static void kafkaSecrets(Fields source) {
    if (!source.has("options") || !(source.raw("options") instanceof YamlNode.MapNode map)) {
      return;
    }
    map.entries().forEach((key, value) -> {
      String lower = key.toLowerCase(java.util.Locale.ROOT);
      boolean sensitive = lower.contains("password") || lower.contains("jaas") || lower.contains("secret")
          || lower.endsWith(".key") || lower.contains("token");
      if (sensitive && value instanceof YamlNode.ScalarNode scalar
          && EnvInterpolator.soleReference(scalar.text()).isEmpty()) {
        // Never echo the value: it may be a real secret.
        source.problems().add(source.path("options") + "." + key, "a literal credential is refused: credentials are"
            + " read only from environment variables", "write " + key + ": ${env:NAME} and set NAME in the"
            + " environment, e.g. ${env:KAFKA_SASL_JAAS_CONFIG}");
      }
    });
  }

  private SourceConfig fileSource(Fields source, Map<String, String> options) {
    for (String key : source.writtenKeys()) {
      if (!LayerRules.allowsFileSourceKey(key)) {
        source.problem(key, "`" + key + "` belongs to a kafka source", "set format: kafka to read topics, or"
            + " remove `" + key + "`");
      }
    }
    SourceFormat format = source.require("format", "one of: json, csv, parquet")
        ? source.choice("format", Names.FILE_FORMATS, null) : null;
    String path = refuseCredentials(source, "path",
        source.requiredString("path", "e.g. path: ${env:ORDERS_INPUT:-data/input}"));
    List<ColumnSpec> schema = schema(source, "schema");
    SchemaEvolution evolution = source.choice("schema_evolution", Names.SCHEMA_EVOLUTIONS, SchemaEvolution.RESCUE);
    if (format == null || path == null || evolution == null) {
      return null;
    }
    return new SourceConfig(format, Optional.of(path.strip()), Optional.empty(), Optional.empty(), options, schema,
        evolution);
  }

  private SourceConfig tableSource(Fields source, Map<String, String> options) {
    source.choice("format", Names.TABLE_FORMATS, SourceFormat.DELTA);
    String table = oneTable(source, "an upstream pipeline");
    sourcePipeline = source.has("pipeline") ? source.string("pipeline") : null;
    if (sourcePipeline != null) {
      sourcePipeline = sourcePipeline.strip();
      table = sinkTables.get(sourcePipeline);
    }
    return new SourceConfig(SourceFormat.DELTA, Optional.empty(), Optional.ofNullable(sourcePipeline),
        Optional.ofNullable(table), options, List.of(), SchemaEvolution.RESCUE);
  }

  /** Checks that exactly one of {@code pipeline} and {@code table} is given; returns the table if valid. */
  private static String oneTable(Fields owner, String what) {
    boolean hasPipeline = owner.has("pipeline");
    boolean hasTable = owner.has("table");
    if (hasPipeline && hasTable) {
      owner.problem("table", "give either `pipeline` or `table`, not both", "`pipeline` reads that pipeline's sink"
          + " table; `table` names a table directly");
    } else if (!hasPipeline && !hasTable && !owner.has("path")) {
      owner.problem("pipeline", "required: `pipeline` (" + what + ") or `table`",
          "e.g. pipeline: orders_bronze, or table: bronze/orders");
    }
    String table = hasTable ? owner.string("table") : null;
    String credentials = table == null ? null : Checks.credentialsInUri(table, "table");
    if (credentials != null) {
      owner.problem("table", credentials, Checks.CREDENTIALS_HINT);
      return null;
    }
    String error = table == null ? null : Checks.tableReference(table.strip());
    if (error != null) {
      owner.problem("table", error, "e.g. table: silver/customers");
      return null;
    }
    return table == null ? null : table.strip();
  }

  /** The path, or null (with a problem) when it is a URI with credentials in it. */
  private static String refuseCredentials(Fields owner, String key, String path) {
    String credentials = path == null ? null : Checks.credentialsInUri(path, key);
    if (credentials != null) {
      owner.problem(key, credentials, Checks.CREDENTIALS_HINT);
      return null;
    }
    return path;
  }

  private static List<ColumnSpec> schema(Fields owner, String key) {
    List<ColumnSpec> columns = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Fields column : owner.objects(key, "columns {name, type}")) {
      String name = column.requiredString("name", "the column name as in the input");
      String text = column.requiredString("type", "a Delta type such as string, long or decimal(10,2)");
      String type = text == null ? null : Checks.deltaType(text);
      if (text != null && type == null) {
        column.problem("type", "`" + text + "` is not a Delta type"
            + Suggestions.closest(text, Checks.PRIMITIVE_TYPES).map(t -> "; did you mean `" + t + "`?").orElse(""),
            (text.startsWith("decimal(") && !text.contains(")")
                ? "inside { } the comma splits decimal(p, s): quote it, type: \"decimal(10,2)\"; " : "")
                + "use one of " + String.join(", ", new java.util.TreeSet<>(Checks.PRIMITIVE_TYPES))
                + " or decimal(p,s) with 1 <= p <= 38 and s <= p");
      }
      Boolean nullable = column.has("nullable") ? column.bool("nullable") : Boolean.TRUE;
      if (name != null && !seen.add(name)) {
        column.problem("name", "duplicate column `" + name + "`", "declare each column once");
      }
      if (name != null && type != null && nullable != null) {
        columns.add(new ColumnSpec(name, type, nullable));
      }
    }
    return columns;
  }

  // ---- transforms

  private List<DerivedColumn> columns() {
    List<DerivedColumn> columns = new ArrayList<>();
    for (Fields column : pipeline.objects("columns", "columns {name, expr}")) {
      String name = column.requiredString("name", "the column to add or replace");
      String expr = column.requiredString("expr", "a SQL expression, e.g. CAST(amount AS DOUBLE)");
      if (name != null && expr != null) {
        columns.add(new DerivedColumn(name, expr));
      }
    }
    return columns;
  }

  private List<Expectation> expectations() {
    List<Expectation> expectations = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Fields rule : pipeline.objects("expectations", "expectations {name, condition, action}")) {
      String name = rule.requiredString("name", "a name for the rule, e.g. positive_amount");
      String condition = rule.requiredString("condition", "a SQL condition every row should meet, e.g. amount > 0");
      ExpectationAction action = rule.choice("action", Names.ACTIONS, ExpectationAction.WARN);
      if (name != null && !names.add(name)) {
        rule.problem("name", "duplicate expectation `" + name + "`", "rule names label quarantined rows: keep them"
            + " unique");
      }
      if (name != null && condition != null && action != null) {
        expectations.add(new Expectation(name, condition, action));
      }
    }
    return expectations;
  }

  private DedupConfig dedup(Fields dedup) {
    if (dedup == null) {
      return null;
    }
    int before = problems.size();
    List<String> keys = dedup.requiredStrings("keys", "column names", "e.g. keys: [order_id, updated_at]");
    Optional<WatermarkConfig> watermark = dedup.has("watermark")
        ? Optional.ofNullable(watermark(dedup.object("watermark", "a watermark {column, delay}"))) : Optional.empty();
    return problems.size() > before ? null : new DedupConfig(keys, watermark);
  }

  private WatermarkConfig watermark(Fields watermark) {
    if (watermark == null) {
      return null;
    }
    String column = watermark.requiredString("column", "the event-time column, e.g. event_time");
    Interval delay = watermark.require("delay", "how late a row may arrive, e.g. delay: 10 minutes")
        ? watermark.interval("delay") : null;
    Interval skew = watermark.has("max_future_skew") ? watermark.interval("max_future_skew")
        : WatermarkConfig.DEFAULT_MAX_FUTURE_SKEW;
    return column == null || delay == null || skew == null ? null : new WatermarkConfig(column, delay, skew);
  }

  /** A Java binary class name: dot-separated identifiers, {@code $} for nested classes. */
  private static final java.util.regex.Pattern CLASS_NAME = java.util.regex.Pattern.compile(
      "[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*");

  private ProcessConfig process(Fields process) {
    if (process == null) {
      return null;
    }
    int before = problems.size();
    String className = process.requiredString("class", "the processor's class, e.g. class: com.acme.Sessionize");
    if (className != null && !CLASS_NAME.matcher(className.strip()).matches()) {
      process.problem("class", "`" + className + "` is not a Java class name", "the binary name of a class in a jar"
          + " passed with --jars or in the plugins/ folder beside the config, e.g. com.acme.Sessionize");
    }
    List<String> keys = process.requiredStrings("keys", "column names", "the grouping columns, e.g. keys: [user]");
    ProcessConfig.Mode mode = process.choice("output_mode", Names.PROCESS_MODES, ProcessConfig.Mode.APPEND);
    ProcessConfig.Timeout timeout = process.choice("timeout", Names.TIMEOUTS, ProcessConfig.Timeout.NONE);
    Map<String, String> options = process.options("options");
    Optional<WatermarkConfig> watermark = process.has("watermark")
        ? Optional.ofNullable(watermark(process.object("watermark", "a watermark {column, delay}")))
        : Optional.empty();
    if (timeout == ProcessConfig.Timeout.EVENT_TIME && !process.has("watermark")) {
      process.problem("timeout", "timeout: event_time needs a watermark", "add watermark: {column: event_time,"
          + " delay: 10 minutes} to process (event-time timeouts fire as the watermark passes them)");
    }
    if (problems.size() > before) {
      return null;
    }
    return new ProcessConfig(className.strip(), keys, mode, timeout, options, watermark);
  }

  private StreamJoinConfig joinStream(Fields join) {
    if (join == null) {
      return null;
    }
    int before = problems.size();
    String table = oneTable(join, "the pipeline whose table is the right side");
    String upstream = join.has("pipeline") ? join.string("pipeline") : null;
    if (upstream != null) {
      streamJoinPipeline = upstream.strip();
      table = sinkTables.get(streamJoinPipeline);
    }
    Map<String, String> options = join.options("options");
    List<String> keys = join.requiredStrings("keys", "column names", "the key columns, named alike on both sides,"
        + " e.g. keys: [ad_id]");
    StreamJoinConfig.Type type = join.choice("type", Names.STREAM_JOIN_TYPES, StreamJoinConfig.Type.INNER);
    Optional<Interval> within = join.has("within") ? Optional.ofNullable(join.interval("within")) : Optional.empty();
    Optional<String> condition = join.optionalString("time_condition");
    Optional<WatermarkConfig> left = join.has("left_watermark")
        ? Optional.ofNullable(watermark(join.object("left_watermark", "a watermark {column, delay}")))
        : Optional.empty();
    Optional<WatermarkConfig> right = join.has("right_watermark")
        ? Optional.ofNullable(watermark(join.object("right_watermark", "a watermark {column, delay}")))
        : Optional.empty();
    if (join.has("within") && join.has("time_condition")) {
      join.problem("time_condition", "give either `within` or `time_condition`, not both", "within: 10 minutes"
          + " bounds the right time to [left time, left time + 10 minutes]; time_condition is that range in SQL");
    }
    if (join.has("within")) {
      for (String side : List.of("left_watermark", "right_watermark")) {
        if (!join.has(side)) {
          join.problem(side, "required with `within`: its column is that side's event time",
              "e.g. " + side + ": {column: event_time, delay: 10 minutes}");
        }
      }
    }
    if (type != null && type.needsBounds()) {
      String why = "required for type: " + type.yamlName();
      for (String side : List.of("left_watermark", "right_watermark")) {
        if (!join.has(side) && !join.has("within")) {
          join.problem(side, why + " (a row is emitted without a match, or evicted, once the watermarks pass its"
              + " time bound)", "e.g. " + side + ": {column: event_time, delay: 10 minutes}, or use type: inner");
        }
      }
      if (!join.has("within") && !join.has("time_condition")) {
        join.problem("within", why + ": a time bound between the two sides", "e.g. within: 10 minutes, or"
            + " time_condition: \"r.click_ts BETWEEN l.imp_ts AND l.imp_ts + INTERVAL 10 MINUTES\"");
      }
    }
    if (problems.size() > before) {
      return null;
    }
    return new StreamJoinConfig(Optional.ofNullable(table), Optional.ofNullable(streamJoinPipeline), options, keys,
        type, within, condition, left, right);
  }

  private List<JoinConfig> joins() {
    List<JoinConfig> joins = new ArrayList<>();
    List<Fields> items = pipeline.objects("joins", "joins {table, on, type}");
    for (int j = 0; j < items.size(); j++) {
      JoinConfig join = join(items.get(j));
      if (join != null) {
        joins.add(join);
      }
    }
    return joins;
  }

  private JoinConfig join(Fields join) {
    int before = problems.size();
    int j = Integer.parseInt(join.path().substring(join.path().lastIndexOf('[') + 1, join.path().length() - 1));
    String table = oneTable(join, "a pipeline whose table to join");
    String upstream = join.has("pipeline") ? join.string("pipeline") : null;
    String path = null;
    SourceFormat format = SourceFormat.DELTA;
    if (upstream != null) {
      joinPipelines.put(j, upstream.strip());
      table = sinkTables.get(upstream.strip());
    }
    if (join.has("path")) {
      if (join.has("table") || join.has("pipeline")) {
        join.problem("path", "give one of `table`, `pipeline` or `path`", "");
      }
      path = refuseCredentials(join, "path", join.string("path"));
      format = join.require("format", "the format of the files at `path`: json, csv, parquet or delta")
          ? join.choice("format", Names.JOIN_FORMATS, null) : null;
    } else {
      join.choice("format", Names.TABLE_FORMATS, SourceFormat.DELTA);
      if (join.has("schema")) {
        join.problem("schema", "a schema is only for files (`path`); a Delta table has its own", "");
      }
    }
    List<ColumnSpec> schema = schema(join, "schema");
    List<String> on = join.requiredStrings("on", "column names", "the key columns, named alike on both sides,"
        + " e.g. on: [customer_id]");
    JoinType type = join.choice("type", Names.JOIN_TYPES, JoinType.INNER);
    JoinRefresh refresh = join.choice("refresh", Names.REFRESHES, JoinRefresh.EVERY_BATCH);
    Map<String, String> options = join.options("options");
    if (problems.size() > before) {
      return null;
    }
    return new JoinConfig(Optional.ofNullable(table), Optional.ofNullable(upstream).map(String::strip),
        Optional.ofNullable(path).map(String::strip), format, options,
        schema, on, type, refresh);
  }

  private Optional<AggregateConfig> aggregate() {
    if (!allowed("aggregate") || !pipeline.has("aggregate")) {
      return Optional.empty();
    }
    Fields aggregate = pipeline.object("aggregate", "a mapping {group_by, window, measures, output_mode}");
    if (aggregate == null) {
      return null;
    }
    int before = problems.size();
    List<String> groupBy = aggregate.strings("group_by", "column names");
    Fields windowFields = aggregate.has("window")
        ? aggregate.object("window", "a window {column, size, slide} or {type: session, column, gap}") : null;
    String windowType = windowFields == null ? null : windowFields.choice("type", Names.WINDOW_TYPES, null);
    boolean session = Names.SESSION.equals(windowType);
    Optional<WindowConfig> window = windowFields == null || session ? Optional.empty()
        : Optional.ofNullable(window(windowFields, windowType));
    Optional<SessionWindowConfig> sessionWindow = session
        ? Optional.ofNullable(sessionWindow(windowFields)) : Optional.empty();
    List<String> measures = aggregate.requiredStrings("measures", "measures",
        "e.g. measures: [\"sum(amount) AS revenue\", \"count(*) AS orders\"]");
    for (int i = 0; measures != null && i < measures.size(); i++) {
      String error = Checks.measure(measures.get(i));
      if (error != null) {
        problems.add(aggregate.path("measures") + "[" + i + "]", error, "e.g. \"sum(amount) AS revenue\"");
      }
    }
    AggregateOutputMode mode = aggregate.choice("output_mode", Names.OUTPUT_MODES, AggregateOutputMode.UPDATE);
    Optional<WatermarkConfig> watermark = aggregate.has("watermark")
        ? Optional.ofNullable(watermark(aggregate.object("watermark", "a watermark {column, delay}")))
        : Optional.empty();
    if (!aggregate.has("group_by") && !aggregate.has("window")) {
      aggregate.problem("group_by", "required: group by at least one column or a window", "e.g. group_by: [tier]");
    }
    if (mode == AggregateOutputMode.APPEND) {
      checkAppend(aggregate, window.map(WindowConfig::column).or(() -> sessionWindow.map(SessionWindowConfig::column)),
          watermark);
    } else if (session && mode != null) {
      aggregate.problem("output_mode", "a session window is written in append mode only, not " + mode.yamlName(),
          "a session is final once the watermark passes its end: set output_mode: append and a watermark on the"
              + " window's column (update mode is refused as in Spark; complete mode is not supported for sessions)");
    }
    if (problems.size() > before) {
      return null;
    }
    return Optional.of(new AggregateConfig(groupBy, window, sessionWindow, measures, mode, watermark));
  }

  private static void checkAppend(Fields aggregate, Optional<String> windowColumn,
      Optional<WatermarkConfig> watermark) {
    if (!aggregate.has("watermark")) {
      aggregate.problem("watermark", "required for output_mode: append",
          "append writes a window once the watermark has passed its end: add watermark: {column: event_time,"
              + " delay: 10 minutes}, or use output_mode: update");
    }
    if (!aggregate.has("window")) {
      aggregate.problem("window", "required for output_mode: append", "append writes finished windows only:"
          + " add window: {column: event_time, size: 1 minute}, or use output_mode: update");
    }
    if (windowColumn.isPresent() && watermark.isPresent() && !windowColumn.get().equals(watermark.get().column())) {
      aggregate.problem("watermark", "the watermark is on `" + watermark.get().column() + "` but the window on `"
          + windowColumn.get() + "`", "in append mode the window must be on the watermarked column");
    }
  }

  private WindowConfig window(Fields window, String type) {
    if (window == null) {
      return null;
    }
    for (String key : List.of("gap", "gap_expr")) {
      if (window.has(key)) {
        window.problem(key, "`" + key + "` is for session windows", "write type: session, or give size (and slide)"
            + " for a time window");
      }
    }
    String column = window.requiredString("column", "the event-time column, e.g. event_time");
    Interval size = window.require("size", "e.g. size: 1 minute") ? window.interval("size") : null;
    Interval slide = window.has("slide") ? window.interval("slide") : size;
    if (size != null && size.duration().isZero()) {
      window.problem("size", "must be longer than zero", "e.g. size: 1 minute");
      return null;
    }
    if (size != null && slide != null && (slide.duration().isZero() || slide.duration().compareTo(size.duration()) > 0)) {
      window.problem("slide", "must be longer than zero and at most the size (" + size + ")",
          "leave slide out for tumbling windows");
      return null;
    }
    if (size != null && slide != null && type != null) {
      boolean tumbling = size.duration().equals(slide.duration());
      if (Names.TUMBLING.equals(type) && !tumbling) {
        window.problem("slide", "a tumbling window has no slide shorter than its size", "leave slide out, or write"
            + " type: sliding");
        return null;
      }
      if (Names.SLIDING.equals(type) && tumbling) {
        window.problem("slide", "required for type: sliding, shorter than the size (" + size + ")",
            "e.g. slide: 1 minute; leave type out for a tumbling window");
        return null;
      }
    }
    return column == null || size == null || slide == null ? null : new WindowConfig(column, size, slide);
  }

  /** {@code window: {type: session, column, gap | gap_expr}}. */
  private static SessionWindowConfig sessionWindow(Fields window) {
    for (String key : List.of("size", "slide")) {
      if (window.has(key)) {
        window.problem(key, "a session window has no `" + key + "`", "give its inactivity gap instead, e.g. gap:"
            + " 30 minutes");
      }
    }
    String column = window.requiredString("column", "the event-time column, e.g. event_time");
    boolean fixed = window.has("gap");
    boolean perRow = window.has("gap_expr");
    if (fixed == perRow) {
      window.problem("gap", fixed ? "give either `gap` or `gap_expr`, not both" : "required: `gap` or `gap_expr`",
          "gap: 30 minutes, or gap_expr: \"CASE WHEN tier = 'gold' THEN '30 minutes' ELSE '10 minutes' END\"");
      return null;
    }
    Interval gap = fixed ? window.interval("gap") : null;
    if (gap != null && gap.duration().isZero()) {
      window.problem("gap", "must be longer than zero", "e.g. gap: 30 minutes");
      return null;
    }
    Optional<String> expression = perRow ? window.optionalString("gap_expr") : Optional.empty();
    if (column == null || (fixed && gap == null) || (perRow && expression.isEmpty())) {
      return null;
    }
    return new SessionWindowConfig(column, Optional.ofNullable(gap), expression.map(String::strip));
  }

  // ---- sink

  private SinkConfig sink(Fields sink) {
    if (sink == null) {
      return null;
    }
    int before = problems.size();
    String table = sink.requiredString("table", "a path relative to the warehouse, e.g. table: silver/orders");
    String error = table == null ? null : Checks.relativeTable(table.strip());
    if (error != null) {
      sink.problem("table", error, "the warehouse is set once at the top of the file");
    } else if (table != null) {
      sinkTable = table.strip();
    }
    List<String> partitionBy = sink.strings("partition_by", "column names");
    Optional<MergeConfig> merge = Optional.empty();
    if (sink.has("merge") && layer != null && layer != Layer.SILVER) {
      sink.problem("merge", "`merge` is not allowed in a " + layer.yamlName() + " pipeline",
          layer == Layer.BRONZE ? "bronze tables are append-only; MERGE by key in a silver pipeline"
              : "a gold table is written by its aggregate's output_mode (update MERGEs by the group keys)");
    } else if (sink.has("merge")) {
      merge = Optional.ofNullable(merge(sink.object("merge", "a mapping {keys, sequence_by, delete_when, scd,"
          + " tombstone_retention}")));
    } else if (layer == Layer.SILVER) {
      sink.problem("merge", "required in a silver pipeline", "a silver table is MERGEd by key: merge: {keys:"
          + " [order_id], sequence_by: updated_at}");
    }
    Map<String, String> properties = sink.options("properties");
    if (!properties.isEmpty() && layer != null && layer != Layer.SILVER) {
      sink.problem("properties", "table properties are applied to silver tables only",
          "remove `properties` here, or set them on the silver pipeline's sink");
    }
    String dvs = properties.get("delta.enableDeletionVectors");
    if (dvs != null && !dvs.equalsIgnoreCase("true") && !dvs.equalsIgnoreCase("false")) {
      sink.problem("properties", "delta.enableDeletionVectors must be true or false, got '" + dvs + "'",
          "e.g. properties: {delta.enableDeletionVectors: \"true\"}");
    }
    return problems.size() > before ? null : new SinkConfig(sinkTable, partitionBy, merge, properties);
  }

  private MergeConfig merge(Fields merge) {
    if (merge == null) {
      return null;
    }
    List<String> keys = merge.requiredStrings("keys", "column names", "the key columns, e.g. keys: [order_id]");
    Optional<String> sequenceBy = merge.optionalString("sequence_by");
    Optional<String> deleteWhen = merge.optionalString("delete_when");
    Integer scd = merge.choice("scd", Names.SCD_TYPES, 1);
    if (scd != null && scd == 2 && sequenceBy.isEmpty()) {
      merge.problem("sequence_by", "required for scd: 2", "SCD type 2 orders the versions of a key by this column,"
          + " e.g. sequence_by: updated_at");
      return null;
    }
    Interval retention = merge.has("tombstone_retention") ? merge.interval("tombstone_retention")
        : MergeConfig.DEFAULT_TOMBSTONE_RETENTION;
    return keys == null || scd == null || retention == null ? null
        : new MergeConfig(keys, sequenceBy.map(String::strip), deleteWhen, scd, retention);
  }
}
