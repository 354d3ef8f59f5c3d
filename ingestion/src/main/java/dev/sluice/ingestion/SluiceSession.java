package dev.sluice.ingestion;

import dev.sluice.ingestion.internal.Locations;
import dev.sluice.ingestion.internal.runner.SourceRegistry;
import dev.sluice.ingestion.internal.sink.MemorySink;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.ingestion.state.StateStoreSettings;
import dev.sluice.ingestion.state.StateStoreType;

/**
 * The entry point of the streaming engine, in Spark's shape: {@code session.readStream()...} builds a
 * query, {@code session.streams()} manages the running ones. Holds the storage settings used to open
 * paths ({@code endpoint}, {@code region}, {@code path-style}, {@code access-key-id}, … for S3).
 */
public final class SluiceSession implements AutoCloseable {
  private final Locations locations;
  private final Clock clock;
  private final SourceRegistry sources = new SourceRegistry();
  private final StreamingQueryManager streams = new StreamingQueryManager();
  private final Map<String, MemorySink> memorySinks = new ConcurrentHashMap<>();
  private final java.time.Duration runnerLeaseWait;
  private final StateStoreSettings stateStore;
  private ClassLoader pluginClassLoader = SluiceSession.class.getClassLoader();

  private SluiceSession(Map<String, String> storageOptions, Clock clock, UnaryOperator<ObjectStore> storeWrapper,
      java.time.Duration runnerLeaseWait, StateStoreSettings stateStore) {
    this.locations = new Locations(storageOptions, storeWrapper);
    this.clock = clock;
    this.runnerLeaseWait = runnerLeaseWait;
    this.stateStore = stateStore;
  }

  /** A session with default settings: local paths and S3 with the default AWS credential chain. */
  public static SluiceSession create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public DataStreamReader readStream() {
    return new DataStreamReader(this);
  }

  public StreamingQueryManager streams() {
    return streams;
  }

  /** The location of a local path, {@code file:} URI or {@code s3://bucket/prefix}. */
  public Location location(String pathOrUri) {
    return locations.resolve(pathOrUri);
  }

  /** The Delta table at a path. */
  public Table table(String pathOrUri) {
    Location l = location(pathOrUri);
    return Table.forPath(l.store(), l.key());
  }

  /** A Delta table as the static side of a stream-static join (re-read at each batch when it has a new version). */
  public StaticTable staticTable(String pathOrUri) {
    return StaticTable.delta(table(pathOrUri));
  }

  /** Data files ({@code json}, {@code csv} or {@code parquet}) as the static side of a join (read once). */
  public StaticTable staticFiles(String pathOrUri, String format, dev.sluice.table.types.StructType schema) {
    return StaticTable.files(location(pathOrUri), format, schema);
  }

  /**
   * Reads data files ({@code json}, {@code csv} or {@code parquet}) at once, like Spark's {@code spark.read}: a
   * folder a file sink wrote is read through its {@code _spark_metadata} log (only the files of committed
   * batches, with the values of {@code col=value} partition folders), any other folder file by file. The rows
   * are held in memory: for small outputs and checks, not for large tables.
   *
   * @throws IllegalArgumentException for an unknown format or option, or nothing at the path
   */
  public List<Row> readFiles(String pathOrUri, String format, dev.sluice.table.types.StructType schema,
      Map<String, String> options) {
    return dev.sluice.ingestion.source.internal.files.StaticFiles.read(location(pathOrUri),
        format.toLowerCase(java.util.Locale.ROOT), schema, options);
  }

  /** The rows a {@code memory} sink of this session has received so far. */
  public List<Row> memoryTable(String name) {
    MemorySink sink = memorySinks.get(name);
    if (sink == null) {
      throw new IllegalArgumentException("No memory sink named '" + name + "' in this session; known: "
          + memorySinks.keySet());
    }
    return sink.rows();
  }

  /**
   * Reads the state a stateful query kept, as Spark's {@code statestore} and {@code state-metadata} sources:
   * {@code readState(table).operator(0).batch(5).rows()}.
   *
   * @param tableOrCheckpoint a query's checkpoint folder, or the table it writes (its checkpoint is then
   *     {@code <table>/_checkpoints/<queryName>}, named with {@link StateReader#query}; {@code default} if not)
   */
  public StateReader readState(String tableOrCheckpoint) {
    return new StateReader(location(tableOrCheckpoint));
  }

  /** Where user classes named in pipeline configs are loaded from ({@link Builder#pluginClassLoader}). */
  public ClassLoader pluginClassLoader() {
    return pluginClassLoader;
  }

  /** The state store settings queries use unless they set option {@code stateStore}. */
  public StateStoreSettings stateStore() {
    return stateStore;
  }

  /** Stops every active query. */
  @Override
  public void close() {
    streams.stopAll();
  }

  Clock clock() {
    return clock;
  }

  /**
   * The option names (lower-case) that {@code readStream().format(format)} accepts, rate limits included;
   * empty for an unknown format.
   */
  public java.util.Set<String> sourceOptions(String format) {
    return sources.options(format);
  }

  /** The prefixes of pass-through option keys (lower case) {@code format} accepts, e.g. {@code kafka.}. */
  public java.util.Set<String> sourceOptionPrefixes(String format) {
    return sources.optionPrefixes(format);
  }

  SourceRegistry sourceRegistry() {
    return sources;
  }

  Map<String, MemorySink> memorySinks() {
    return memorySinks;
  }

  java.time.Duration runnerLeaseWait() {
    return runnerLeaseWait;
  }

  /** Configures a session. */
  public static final class Builder {
    private final Map<String, String> storageOptions = new LinkedHashMap<>();
    private Clock clock = Clock.systemUTC();
    private UnaryOperator<ObjectStore> storeWrapper = UnaryOperator.identity();
    private java.time.Duration runnerLeaseWait = java.time.Duration.ZERO;
    private StateStoreSettings stateStore = StateStoreSettings.defaults();
    private ClassLoader pluginClassLoader = SluiceSession.class.getClassLoader();

    /** A storage option for S3 paths: endpoint, region, path-style, access-key-id, secret-access-key, … */
    public Builder storageOption(String key, String value) {
      storageOptions.put(key, value);
      return this;
    }

    public Builder storageOptions(Map<String, String> values) {
      storageOptions.putAll(values);
      return this;
    }

    public Builder clock(Clock value) {
      this.clock = value;
      return this;
    }

    /** Wraps every object store the session opens (metrics, auditing, fault injection in tests). */
    public Builder wrapStores(UnaryOperator<ObjectStore> wrapper) {
      this.storeWrapper = wrapper;
      return this;
    }

    /**
     * How long a query started in this session waits for another live runner of it (another process holding
     * its checkpoint's lease) before failing; the query option {@code runnerLeaseWait} overrides it. Zero (the
     * default) fails at once, as Spark does for a checkpoint in use.
     */
    public Builder runnerLeaseWait(java.time.Duration value) {
      this.runnerLeaseWait = value;
      return this;
    }

    /**
     * The state store of queries that don't choose one with option {@code stateStore}; default in-memory
     * ({@link StateStoreSettings#defaults()}).
     */
    public Builder stateStore(StateStoreSettings value) {
      this.stateStore = java.util.Objects.requireNonNull(value, "stateStore");
      return this;
    }

    /**
     * The state store provider by name ({@code inmemory} or {@code rocksdb}) with default settings.
     *
     * @throws IllegalArgumentException for another name
     */
    public Builder stateStore(String provider) {
      return stateStore(stateStore.withType(StateStoreType.of(provider, "session stateStore")));
    }

    /**
     * Where user classes named in pipeline configs ({@code process.class}) are loaded from, e.g.
     * {@link dev.sluice.ingestion.stateful.Plugins#classLoader}; default Sluice's own class loader.
     */
    public Builder pluginClassLoader(ClassLoader value) {
      this.pluginClassLoader = java.util.Objects.requireNonNull(value, "pluginClassLoader");
      return this;
    }

    public SluiceSession build() {
      SluiceSession session = new SluiceSession(storageOptions, clock, storeWrapper, runnerLeaseWait, stateStore);
      session.pluginClassLoader = pluginClassLoader;
      return session;
    }
  }
}
