package dev.sluice.ingestion.internal.plan.join;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.state.StateEntry;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The buffered rows of one side of a stream-stream join: state key = join key, value = the side's rows with that
 * key, each with a {@code matched} flag (Spark's state format 2: an outer row is null-joined at eviction only if it
 * never matched). Only the {@link StateStore} SPI is used, so any provider holds it. During a batch the lists
 * touched are kept in a cache and written back by {@link #flush}.
 *
 * <p>{@link #numRowsTotal} counts buffered rows, as Spark does, not keys: it is kept up to date as lists change
 * and remembered per store version, so a batch re-run from version N-1 (after a failed commit) starts from
 * that version's count; when it isn't known (the first batch of a run) one scan of the store counts it.
 */
final class JoinSideState implements StatefulTransform {
  private final String side;
  private final StateSchema stateSchema;
  private final int width;
  private final Map<String, String> fingerprint;
  private Map<Row, List<Object[]>> cache = new HashMap<>();
  private Map<Row, Boolean> dirty = new HashMap<>();
  private StateStore store;
  long dropped;
  private long lastSize = -1;
  private long lastVersion = -1;
  /** Buffered rows in the state this batch started from, then as the batch changed them. */
  private long rows;
  /** The row count of the version this batch writes, and of the one before (a re-run starts from it). */
  private final Map<Long, Long> rowsAtVersion = new HashMap<>();
  private final Map<Row, Integer> loadedSize = new HashMap<>();

  JoinSideState(String side, StructType keySchema, StructType rowSchema, Map<String, String> fingerprint) {
    this.side = side;
    this.width = rowSchema.size();
    List<StructField> fields = new ArrayList<>();
    for (StructField f : rowSchema.fields()) {
      fields.add(new StructField(f.name(), f.type(), true, Map.of()));
    }
    fields.add(StructField.of("__matched", PrimitiveType.BOOLEAN, false));
    this.stateSchema = new StateSchema(keySchema,
        StructType.of(StructField.of("rows", new ArrayType(new StructType(fields), false), false)));
    this.fingerprint = fingerprint;
  }

  void begin(StateStore store) {
    this.store = store;
    cache = new HashMap<>();
    dirty = new HashMap<>();
    loadedSize.clear();
    dropped = 0;
    Long known = rowsAtVersion.get(store.version() - 1);
    rows = known != null ? known : countRows(store);
  }

  private long countRows(StateStore store) {
    long n = 0;
    for (Iterator<StateEntry> it = store.iterator(); it.hasNext(); ) {
      n += ((List<?>) it.next().value().get(0)).size();
    }
    return n;
  }

  /** Buffered rows after the last batch that completed (Spark's {@code numRowsTotal} of a join side). */
  @Override
  public long numRowsTotal(dev.sluice.ingestion.state.StateStoreMetrics committed) {
    Long n = rowsAtVersion.get(lastVersion);
    return n == null ? 0 : n;
  }

  /** The rows buffered under {@code key}: arrays of the side's values plus the matched flag at the end. */
  List<Object[]> rows(Row key) {
    List<Object[]> rows = cache.get(key);
    if (rows == null) {
      rows = decode(store.get(key));
      cache.put(key, rows);
      loadedSize.put(key, rows.size());
    }
    return rows;
  }

  void markChanged(Row key) {
    dirty.put(key, Boolean.TRUE);
  }

  void add(Row key, Row row, boolean matched) {
    Object[] values = new Object[width + 1];
    for (int i = 0; i < width; i++) {
      values[i] = row.get(i);
    }
    values[width] = matched;
    rows(key).add(values);
    markChanged(key);
  }

  /** Writes the changed lists back to the store. */
  void flush() {
    for (Row key : dirty.keySet()) {
      List<Object[]> rows = cache.get(key);
      this.rows += rows.size() - loadedSize.getOrDefault(key, 0);
      if (rows.isEmpty()) {
        store.remove(key);
      } else {
        store.put(key, encode(rows));
      }
    }
    dirty = new HashMap<>();
    cache = new HashMap<>();
    loadedSize.clear();
  }

  /**
   * Removes every buffered row {@code expired} accepts, handing it (values, matched flag last) to {@code removed}.
   * Call after {@link #flush}.
   */
  void evict(Predicate<Object[]> expired, Consumer<Object[]> removed) {
    List<StateEntry> changed = new ArrayList<>();
    for (Iterator<StateEntry> it = store.iterator(); it.hasNext(); ) {
      StateEntry e = it.next();
      List<Object[]> rows = decode(e.value());
      List<Object[]> kept = new ArrayList<>(rows.size());
      for (Object[] r : rows) {
        if (expired.test(r)) {
          removed.accept(r);
          this.rows--;
        } else {
          kept.add(r);
        }
      }
      if (kept.size() != rows.size()) {
        changed.add(new StateEntry(e.key(), kept.isEmpty() ? null : encode(kept)));
      }
    }
    for (StateEntry e : changed) {
      if (e.value() == null) {
        store.remove(e.key());
      } else {
        store.put(e.key(), e.value());
      }
    }
  }

  /** Records the batch's row count; only after the batch ran to its end (a failed batch is re-run). */
  void completed() {
    lastVersion = store.version();
    rowsAtVersion.keySet().removeIf(v -> v < lastVersion - 1);
    rowsAtVersion.put(lastVersion, rows);
  }

  void end() {
    lastSize = store.size();
    store = null;
  }

  private List<Object[]> decode(Row stored) {
    List<Object[]> out = new ArrayList<>();
    if (stored != null) {
      for (Object o : (List<?>) stored.get(0)) {
        out.add(((Row) o).toArray());
      }
    }
    return out;
  }

  private static Row encode(List<Object[]> rows) {
    List<Row> out = new ArrayList<>(rows.size());
    for (Object[] r : rows) {
      out.add(Row.of(r.clone()));
    }
    return Row.of(out);
  }

  int width() {
    return width;
  }

  @Override
  public String operatorName() {
    return "symmetricHashJoin(" + side + ")";
  }

  @Override
  public StateSchema stateSchema() {
    return stateSchema;
  }

  @Override
  public Map<String, String> fingerprint() {
    return fingerprint;
  }

  @Override
  public boolean needsNoDataBatch(long previousMs, long currentMs) {
    return currentMs > previousMs && lastSize != 0;
  }

  @Override
  public long lastDroppedByWatermark() {
    return dropped;
  }

  @Override
  public StructType schema() {
    throw new UnsupportedOperationException("the join's side state is not a step of its own");
  }

  @Override
  public Batch apply(Batch input, BatchInfo info) {
    throw new UnsupportedOperationException("the join's side state is not a step of its own");
  }

  @Override
  public String describe() {
    return "JoinState[" + side + "]";
  }
}
