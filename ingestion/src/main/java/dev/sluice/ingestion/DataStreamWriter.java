package dev.sluice.ingestion;

import dev.sluice.ingestion.internal.plan.Analyzer;
import dev.sluice.ingestion.internal.plan.TransformSpec;
import dev.sluice.ingestion.internal.runner.MicroBatchExecution;
import dev.sluice.ingestion.internal.runner.QuerySpec;
import dev.sluice.ingestion.internal.sink.ConsoleSink;
import dev.sluice.ingestion.internal.sink.DeltaSink;
import dev.sluice.ingestion.internal.sink.ForeachBatchSink;
import dev.sluice.ingestion.internal.sink.MemorySink;
import dev.sluice.ingestion.sink.Sink;
import dev.sluice.ingestion.sink.SinkContext;
import dev.sluice.ingestion.sink.SinkProvider;
import dev.sluice.ingestion.state.StateStoreSettings;
import dev.sluice.table.Table;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;

/**
 * Describes where a stream goes and starts it:
 * {@code writeStream().format("delta").outputMode("append").trigger(Trigger.availableNow())
 * .queryName("bronze_orders").toTable(path)}. The checkpoint defaults to
 * {@code <table>/_checkpoints/<query name>} for Delta sinks.
 */
public final class DataStreamWriter {
  private static final Set<String> FORMATS = Set.of("delta", "console", "memory", "foreachbatch");
  private static final Set<String> OPTIONS = Set.of("checkpointlocation", "mergeschema", "minbatchestoretain",
      "numrows", "truncate", "runnerleasetimeout", "runnerleasewait", "watermarkpolicy", "laterowstable", "maxfutureskew",
      "statestore", "statestore.rocksdb.memory", "statestore.localdir", "statestore.snapshotinterval");
  /** Plugin sinks (kafka, json, csv, parquet) by format name, found with ServiceLoader. */
  private static final Map<String, SinkProvider> PLUGINS = plugins();

  /**
   * Option {@code maxFutureSkew}: how far after the batch's timestamp an event time may be and still move the
   * watermark; later ones are counted ({@code eventTime.futureRows} in progress, a warning) and passed on.
   */
  public static final String DEFAULT_MAX_FUTURE_SKEW = "1 day";

  private final SluiceSession session;
  private final StreamFrame frame;
  private String format = "delta";
  private OutputMode outputMode = OutputMode.APPEND;
  private Trigger trigger = Trigger.defaultTrigger();
  private String queryName;
  private final Map<String, String> options = new LinkedHashMap<>();
  private final List<String> partitionBy = new ArrayList<>();
  private BatchFunction foreachBatch;

  DataStreamWriter(SluiceSession session, StreamFrame frame) {
    this.session = session;
    this.frame = frame;
  }

  /** {@code delta} (default), {@code console}, {@code memory}, and the plugins {@code kafka}, {@code json}, {@code csv}, {@code parquet}. */
  public DataStreamWriter format(String value) {
    String f = value.toLowerCase(Locale.ROOT);
    if (!FORMATS.contains(f) && !PLUGINS.containsKey(f)) {
      Set<String> known = new TreeSet<>(FORMATS);
      known.addAll(PLUGINS.keySet());
      throw new IllegalArgumentException("Unknown sink format '" + value + "'; use one of " + known);
    }
    this.format = f;
    return this;
  }

  public DataStreamWriter outputMode(OutputMode value) {
    this.outputMode = value;
    return this;
  }

  public DataStreamWriter outputMode(String value) {
    return outputMode(OutputMode.of(value));
  }

  public DataStreamWriter trigger(Trigger value) {
    this.trigger = value;
    return this;
  }

  /** The query's name: shown in progress, and the default checkpoint folder name. */
  public DataStreamWriter queryName(String value) {
    this.queryName = value;
    return this;
  }

  /**
   * {@code checkpointLocation}, {@code mergeSchema}, {@code minBatchesToRetain} (default 100), console
   * {@code numRows}/{@code truncate}, {@code runnerLeaseTimeout} (default 10 seconds), {@code runnerLeaseWait}
   * (how long to wait for another live runner of the query; default the session's, zero), {@code watermarkPolicy}, {@code lateRowsTable}, {@code maxFutureSkew}
   * (default {@value #DEFAULT_MAX_FUTURE_SKEW}); the state store: {@code stateStore} ({@code inmemory} or
   * {@code rocksdb}; default the session's), {@code stateStore.rocksdb.memory} (native memory shared by the query's
   * RocksDB stores, e.g. {@code 64m}, the default), {@code stateStore.localDir} (RocksDB's working copies; default
   * {@code <java.io.tmpdir>/sluice-state}), {@code stateStore.snapshotInterval} (versions between snapshots,
   * default 10); the kafka sink's {@code kafka.*}, {@code topic},
   * {@code deliveryGuarantee}; the file sinks' {@code path}, {@code compression}, {@code maxRecordsPerFile} and csv
   * {@code header}, {@code sep}, {@code quote}, {@code escape}, {@code nullValue}.
   */
  public DataStreamWriter option(String key, String value) {
    if (!OPTIONS.contains(key.toLowerCase(Locale.ROOT)) && !isPluginOption(key.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException("Unknown writeStream option '" + key + "'; accepted: checkpointLocation,"
          + " mergeSchema, minBatchesToRetain, numRows, truncate, runnerLeaseTimeout, runnerLeaseWait, watermarkPolicy, lateRowsTable, maxFutureSkew,"
          + " stateStore, stateStore.rocksdb.memory, stateStore.localDir, stateStore.snapshotInterval"
          + "; for the kafka, json, csv and parquet sinks also: " + pluginOptionNames());
    }
    options.put(key.toLowerCase(Locale.ROOT), value);
    return this;
  }

  /** Partition columns of a Delta table the sink creates. */
  public DataStreamWriter partitionBy(String... columns) {
    partitionBy.addAll(List.of(columns));
    return this;
  }

  /** Hands each batch to {@code function} (which must be idempotent per batch id). */
  public DataStreamWriter foreachBatch(BatchFunction function) {
    this.format = "foreachbatch";
    this.foreachBatch = function;
    return this;
  }

  /** Starts writing to the Delta table at {@code path} (created by the first batch if missing). */
  public StreamingQuery toTable(String path) {
    format = "delta";
    return start(path);
  }

  /**
   * Starts a sink that has a path (delta).
   *
   * @throws IllegalArgumentException when the format is not delta: console, memory and foreachBatch write no
   *     table, and a path given to them would otherwise be written as a Delta table in silence
   */
  public StreamingQuery start(String path) {
    if (PLUGINS.containsKey(format)) {
      options.put("path", path);
      return startPlugin();
    }
    if (!format.equals("delta")) {
      throw new IllegalArgumentException("The " + (format.equals("foreachbatch") ? "foreachBatch" : format)
          + " sink writes no table, so it takes no path (got '" + path + "'): call start() without a path, or"
          + " format(\"delta\") / toTable(path) to write a Delta table there");
    }
    Location table = session.location(path);
    String name = queryName == null ? "default" : queryName;
    Location checkpoint = options.containsKey("checkpointlocation")
        ? session.location(options.get("checkpointlocation"))
        : table.resolve("_checkpoints/" + name);
    boolean mergeSchema = Boolean.parseBoolean(options.getOrDefault("mergeschema", "false"));
    Function<UUID, Sink> sink = id -> new DeltaSink(Table.forPath(table.store(), table.key()), id.toString(),
        outputMode, partitionBy, mergeSchema);
    return launch(checkpoint, sink, "DeltaSink[" + table + "]");
  }

  /** Starts a sink without a path (console, memory, foreachBatch). */
  public StreamingQuery start() {
    if (PLUGINS.containsKey(format)) {
      return startPlugin();
    }
    if (format.equals("delta")) {
      throw new IllegalArgumentException("The delta sink needs a table path: call toTable(path) or start(path)");
    }
    Location checkpoint;
    if (options.containsKey("checkpointlocation")) {
      checkpoint = session.location(options.get("checkpointlocation"));
    } else if (format.equals("foreachbatch")) {
      throw new IllegalArgumentException("foreachBatch needs option checkpointLocation, so that a restart resumes"
          + " exactly where the query stopped");
    } else {
      checkpoint = session.location(temporaryCheckpoint());
    }
    Function<UUID, Sink> sink;
    String description;
    switch (format) {
      case "console" -> {
        int numRows = Integer.parseInt(options.getOrDefault("numrows", "20"));
        boolean truncate = Boolean.parseBoolean(options.getOrDefault("truncate", "true"));
        sink = id -> new ConsoleSink(System.out, numRows, truncate);
        description = "ConsoleSink";
      }
      case "memory" -> {
        if (queryName == null) {
          throw new IllegalArgumentException("The memory sink needs queryName(...): it names the in-memory table");
        }
        MemorySink memory = new MemorySink(queryName, outputMode);
        session.memorySinks().put(queryName, memory);
        sink = id -> memory;
        description = memory.description();
      }
      default -> {
        BatchFunction fn = foreachBatch;
        sink = id -> new ForeachBatchSink(fn, id);
        description = "ForeachBatchSink";
      }
    }
    return launch(checkpoint, sink, description);
  }

  /**
   * Starts a plugin sink: it checks its options and the output mode first; the checkpoint defaults to
   * {@code <path>/_checkpoints/<query name>} for sinks with a path and is required otherwise.
   */
  private StreamingQuery startPlugin() {
    Optional<Location> path = Optional.ofNullable(options.get("path")).map(session::location);
    SinkProvider.PreparedSink prepared = PLUGINS.get(format).prepare(format,
        new SinkContext(options, path, Optional.ofNullable(queryName), outputMode, partitionBy));
    String name = queryName == null ? "default" : queryName;
    Location checkpoint = Optional.ofNullable(options.get("checkpointlocation")).map(session::location)
        .or(() -> path.map(p -> p.resolve("_checkpoints/" + name)))
        .orElseThrow(() -> new IllegalArgumentException("The " + format + " sink needs option checkpointLocation, so"
            + " that a restart resumes exactly where the query stopped (and, with Kafka transactions, keeps the same"
            + " transactional id)"));
    return launch(checkpoint, prepared::open, prepared.description());
  }

  /** Options of another sink (e.g. {@code topic} given to the delta sink) would be ignored in silence: refuse them. */
  private void checkOptionsBelongTo(String sinkFormat) {
    SinkProvider plugin = PLUGINS.get(sinkFormat);
    for (String key : options.keySet()) {
      boolean own = OPTIONS.contains(key) || (plugin != null && (plugin.options().contains(key)
          || plugin.optionPrefixes().stream().anyMatch(key::startsWith)));
      if (!own) {
        throw new IllegalArgumentException("Option '" + key + "' is not an option of the " + sinkFormat + " sink (it"
            + " belongs to another sink format): remove it, or pick the format it belongs to");
      }
    }
  }

  private static boolean isPluginOption(String key) {
    return PLUGINS.values().stream().anyMatch(p -> p.options().contains(key)
        || p.optionPrefixes().stream().anyMatch(key::startsWith));
  }

  private static String pluginOptionNames() {
    Set<String> names = new TreeSet<>();
    PLUGINS.values().forEach(p -> {
      names.addAll(p.options());
      p.optionPrefixes().forEach(prefix -> names.add(prefix + "*"));
    });
    return String.join(", ", names);
  }

  private static Map<String, SinkProvider> plugins() {
    Map<String, SinkProvider> out = new LinkedHashMap<>();
    for (SinkProvider p : ServiceLoader.load(SinkProvider.class, DataStreamWriter.class.getClassLoader())) {
      p.formats().forEach(f -> out.put(f.toLowerCase(Locale.ROOT), p));
    }
    return Map.copyOf(out);
  }

  private boolean watermarkPolicy() {
    String policy = options.getOrDefault("watermarkpolicy", "min").toLowerCase(Locale.ROOT);
    if (!policy.equals("min") && !policy.equals("max")) {
      throw new IllegalArgumentException("Option watermarkPolicy must be min or max, got '" + policy + "'");
    }
    return policy.equals("max");
  }

  private StateStoreSettings stateStore() {
    return session.stateStore().withOptions(options);
  }

  private static String temporaryCheckpoint() {
    try {
      return Files.createTempDirectory("sluice-checkpoint-").toString();
    } catch (java.io.IOException e) {
      throw new IllegalStateException("Cannot create a temporary checkpoint folder: " + e.getMessage(), e);
    }
  }

  private StreamingQuery launch(Location checkpoint, Function<UUID, Sink> sink, String description) {
    checkOptionsBelongTo(format);
    int retain = Integer.parseInt(options.getOrDefault("minbatchestoretain", "100"));
    Analyzer.check(frame.steps(), outputMode, format);
    List<TransformSpec> transforms = new ArrayList<>();
    frame.steps().forEach(s -> transforms.add(s.spec(outputMode)));
    QuerySpec spec = new QuerySpec(queryName, frame.sources(), transforms, sink, description, outputMode,
        trigger, checkpoint, retain,
        Durations.parse(options.getOrDefault("runnerleasetimeout", "10 seconds"), "option runnerLeaseTimeout"),
        Optional.ofNullable(options.get("runnerleasewait"))
            .map(v -> Durations.parse(v, "option runnerLeaseWait")).orElse(session.runnerLeaseWait()),
        watermarkPolicy(), Durations.parse(options.getOrDefault("maxfutureskew", DEFAULT_MAX_FUTURE_SKEW),
            "option maxFutureSkew"), Optional.ofNullable(options.get("laterowstable")).map(session::location),
        frame.fingerprint(outputMode), stateStore());
    StreamingQueryManager manager = session.streams();
    MicroBatchExecution[] self = new MicroBatchExecution[1];
    self[0] = new MicroBatchExecution(spec, session.sourceRegistry(), session::location, session.clock(),
        manager.listeners(), () -> manager.terminated(self[0]));
    manager.register(self[0]);
    try {
      self[0].start();
    } catch (RuntimeException e) {
      manager.terminated(self[0]);
      throw e;
    }
    return self[0];
  }

}
