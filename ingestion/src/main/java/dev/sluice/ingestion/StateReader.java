package dev.sluice.ingestion;

import dev.sluice.ingestion.internal.checkpoint.QueryCheckpoint;
import dev.sluice.ingestion.state.StateEntry;
import dev.sluice.ingestion.state.StateOperatorMetadata;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.ingestion.state.StateStoreFactory;
import dev.sluice.ingestion.state.StateStoreProvider;
import dev.sluice.ingestion.state.StateStoreSettings;
import dev.sluice.ingestion.state.StateStores;
import dev.sluice.ingestion.state.internal.StateHistory;
import dev.sluice.ingestion.state.internal.StateMetadataFile;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * Reads the state a stateful query kept in its checkpoint, as Spark's {@code statestore} and
 * {@code state-metadata} sources do: {@link #metadata()} lists the operators (name, provider, key and value
 * schemas, the batches whose state can be read); {@link #rows()} is an operator's state after a batch (key
 * columns, then value columns); {@link #changes(long, long)} turns it into the change feed of the batches in a
 * range ({@code batch_id}, {@code change_type} = {@code update} or {@code delete}, key and value columns). Reads
 * only: the query may run meanwhile. Made by {@link SluiceSession#readState}.
 */
public final class StateReader {
  /** One operator of {@link #metadata()}: its recorded metadata and the batches whose state can be read. */
  public record OperatorState(StateOperatorMetadata metadata, Optional<Long> earliestBatch,
      Optional<Long> latestBatch) {}

  private final Location root;
  private String query;
  private int operator;
  private Long batch;
  private long[] changes;

  StateReader(Location root) {
    this.root = root;
  }

  /** For a table path: the query whose checkpoint {@code <table>/_checkpoints/<name>} to read. */
  public StateReader query(String name) {
    this.query = name;
    return this;
  }

  /** The operator's id (0 = the first stateful step of the query; default 0). */
  public StateReader operator(int id) {
    this.operator = id;
    return this;
  }

  /** The state after batch {@code id} (default: the latest committed). */
  public StateReader batch(long id) {
    this.batch = id;
    this.changes = null;
    return this;
  }

  /** Instead of the state, the changes batches {@code fromBatch} to {@code toBatch} (both included) made to it. */
  public StateReader changes(long fromBatch, long toBatch) {
    if (fromBatch < 0 || toBatch < fromBatch) {
      throw new IllegalArgumentException("A state change range needs 0 <= from <= to, got " + fromBatch + ".."
          + toBatch);
    }
    this.changes = new long[] {fromBatch, toBatch};
    return this;
  }

  /** The checkpoint folder this reader reads. */
  public Location checkpoint() {
    if (exists(root.resolve("_delta_log"))) {
      Location checkpoints = root.resolve("_checkpoints");
      if (query != null) {
        return checkpoints.resolve(query);
      }
      List<String> names = children(checkpoints);
      if (names.size() == 1) {
        return checkpoints.resolve(names.get(0));
      }
      return checkpoints.resolve("default");
    }
    return root;
  }

  /** Every stateful operator the checkpoint records, by id. */
  public List<OperatorState> metadata() {
    Location state = new QueryCheckpoint(checkpoint()).stateLocation();
    List<OperatorState> out = new ArrayList<>();
    for (int id = 0; ; id++) {
      Optional<StateOperatorMetadata> m = StateMetadataFile.read(state.resolve(Integer.toString(id)));
      if (m.isEmpty()) {
        break;
      }
      Optional<StateHistory.Versions> versions = history(m.get()).versions();
      OptionalBatch latest = latestCommitted();
      out.add(new OperatorState(m.get(),
          versions.map(v -> Math.max(v.earliest(), 1) - 1),
          versions.map(v -> latest.cap(v.latest() - 1))));
    }
    return out;
  }

  /** The columns of {@link #rows()}: key columns, value columns (those named like a key column get {@code value_}). */
  public StructType schema() {
    StateOperatorMetadata m = operatorMetadata();
    StructType out = changes == null ? StructType.empty()
        : StructType.empty().add("batch_id", PrimitiveType.LONG).add("change_type", PrimitiveType.STRING);
    for (StructField f : m.schema().keySchema().fields()) {
      out = out.add(new StructField(f.name(), f.type(), true, f.metadata()));
    }
    for (StructField f : m.schema().valueSchema().fields()) {
      String name = out.field(f.name()).isPresent() ? "value_" + f.name() : f.name();
      out = out.add(new StructField(name, f.type(), true, f.metadata()));
    }
    return out;
  }

  /** {@link #iterator()} read into a list (the state of a large RocksDB store may not fit: iterate instead). */
  public List<Row> rows() {
    List<Row> out = new ArrayList<>();
    try (CloseableIterator<Row> it = iterator()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  /**
   * The state's rows, or the change feed's; the caller closes the iterator (a RocksDB state is rebuilt in a
   * temporary folder, deleted on close).
   *
   * @throws IllegalArgumentException for an operator the checkpoint doesn't have, or a batch whose state is not
   *     there (not yet run, or purged by {@code minBatchesToRetain}): the message gives the readable range
   */
  public CloseableIterator<Row> iterator() {
    StateOperatorMetadata m = operatorMetadata();
    int keyCount = m.schema().keySchema().fields().size();
    int valueCount = m.schema().valueSchema().fields().size();
    if (changes != null) {
      return CloseableIterator.of(changeRows(m, keyCount, valueCount).iterator());
    }
    OperatorState info = metadata().get(operator);
    if (info.latestBatch().isEmpty()) {
      return CloseableIterator.of(List.<Row>of().iterator());
    }
    long b = batch != null ? batch : info.latestBatch().get();
    if (b < info.earliestBatch().get() || b > info.latestBatch().get()) {
      throw new IllegalArgumentException("The state of batch " + b + " of operator " + operator + " ("
          + m.operatorName() + ") is not in " + checkpoint() + ": batches " + info.earliestBatch().get() + " to "
          + info.latestBatch().get() + " can be read (older ones are purged by minBatchesToRetain)");
    }
    return stateRows(m, b, keyCount, valueCount);
  }

  private CloseableIterator<Row> stateRows(StateOperatorMetadata m, long b, int keyCount, int valueCount) {
    Path local;
    try {
      local = Files.createTempDirectory("sluice-state-reader-");
    } catch (IOException e) {
      throw new IllegalStateException("Cannot create a temporary folder for reading state: " + e.getMessage(), e);
    }
    StateStoreFactory factory = StateStores.factory(StateStoreSettings.of(m.provider()).withLocalDir(local));
    StateStoreProvider provider = factory.create(partition(), m.schema());
    StateStore store;
    try {
      store = provider.load(b + 2); // holds the state of version b + 1: after batch b
    } catch (RuntimeException e) {
      provider.close();
      factory.close();
      throw e;
    }
    Iterator<StateEntry> entries = store.iterator();
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return entries.hasNext();
      }

      @Override
      public Row next() {
        StateEntry e = entries.next();
        Object[] values = new Object[keyCount + valueCount];
        for (int i = 0; i < keyCount; i++) {
          values[i] = e.key().get(i);
        }
        for (int i = 0; i < valueCount; i++) {
          values[keyCount + i] = e.value().get(i);
        }
        return Row.of(values);
      }

      @Override
      public void close() {
        store.abort();
        provider.close();
        factory.close();
        try {
          Files.deleteIfExists(local);
        } catch (IOException ignored) {
          // a temporary folder left behind is harmless
        }
      }
    };
  }

  private List<Row> changeRows(StateOperatorMetadata m, int keyCount, int valueCount) {
    StateHistory history = history(m);
    List<Row> out = new ArrayList<>();
    for (long b = changes[0]; b <= changes[1]; b++) {
      for (StateHistory.Change c : history.changes(b + 1)) {
        Object[] values = new Object[2 + keyCount + valueCount];
        values[0] = b;
        values[1] = c.value() == null ? "delete" : "update";
        for (int i = 0; i < keyCount; i++) {
          values[2 + i] = c.key().get(i);
        }
        for (int i = 0; c.value() != null && i < valueCount; i++) {
          values[2 + keyCount + i] = c.value().get(i);
        }
        out.add(Row.of(values));
      }
    }
    return out;
  }

  private StateOperatorMetadata operatorMetadata() {
    Location state = new QueryCheckpoint(checkpoint()).stateLocation();
    return StateMetadataFile.read(state.resolve(Integer.toString(operator))).orElseThrow(() ->
        new IllegalArgumentException("The checkpoint " + checkpoint() + " has no stateful operator " + operator
            + " (operators: " + metadata().size() + "; a query without stateful steps keeps no state, and a checkpoint"
            + " written before Sluice recorded state metadata gets it at its next run)"));
  }

  private StateHistory history(StateOperatorMetadata m) {
    return new StateHistory(new QueryCheckpoint(checkpoint()).stateLocation()
        .resolve(m.operatorId() + "/0"), m.schema(), m.provider());
  }

  private Location partition() {
    return new QueryCheckpoint(checkpoint()).stateLocation().resolve(operator + "/0");
  }

  /** The latest committed batch, to hide the state of a batch whose sink commit has not happened yet. */
  private OptionalBatch latestCommitted() {
    java.util.OptionalLong c = new QueryCheckpoint(checkpoint()).latestCommitBatch();
    return new OptionalBatch(c.isPresent() ? c.getAsLong() : Long.MAX_VALUE);
  }

  private record OptionalBatch(long latest) {
    long cap(long batchId) {
      return Math.min(batchId, latest);
    }
  }

  private static boolean exists(Location folder) {
    try (CloseableIterator<ObjectStatus> it = folder.store().list(folder.key() + "/")) {
      return it.hasNext();
    }
  }

  private static List<String> children(Location folder) {
    String prefix = folder.key() + "/";
    java.util.TreeSet<String> out = new java.util.TreeSet<>();
    try (CloseableIterator<ObjectStatus> it = folder.store().list(prefix)) {
      while (it.hasNext()) {
        String rest = it.next().key().substring(prefix.length());
        int slash = rest.indexOf('/');
        if (slash > 0) {
          out.add(rest.substring(0, slash));
        }
      }
    }
    return new ArrayList<>(out);
  }

}
