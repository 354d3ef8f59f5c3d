package dev.sluice.ingestion.internal.plan.dedup;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.ingestion.state.StateTimeIndex;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code dropDuplicatesWithinWatermark(columns)} with Spark 3.5's semantics: the first row of a key passes
 * and stores an expiry of its event time plus the watermark delay; later rows of the key are dropped while
 * the key is in state. A batch first evicts the keys whose expiry is at or before its watermark, then
 * drops late rows (event time before the watermark) and deduplicates the rest in input order. A row with
 * a null event time is never late and its key never expires.
 */
final class DropDuplicatesWithinWatermark implements StatefulTransform {
  static final StructType VALUE_SCHEMA = StructType.empty().add("expiresAtMicros", PrimitiveType.LONG);

  /** The expiry is in the value: a store without the index can evict without decoding a single key. */
  private static final StateTimeIndex EXPIRY = StateTimeIndex.ofLongValueColumn(0);
  /** Keys per store lookup: one multiGet on RocksDB, and all a batch holds of its keys at a time. */
  private static final int LOOKUP_CHUNK = 1024;

  private final StructType schema;
  private final DedupColumns keys;
  private final long delayMicros;
  private final StateSchema stateSchema;
  private final EvictionHorizon horizon = new EvictionHorizon();
  private long dropped;

  DropDuplicatesWithinWatermark(StructType schema, DedupColumns keys, long delayMs) {
    this.schema = schema;
    this.keys = keys;
    this.delayMicros = Math.multiplyExact(delayMs, 1000L);
    this.stateSchema = new StateSchema(keys.keySchema(), VALUE_SCHEMA);
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Batch apply(Batch input, BatchInfo info) {
    StateStore store = info.store(this);
    horizon.evict(store, EXPIRY, info.watermarkMs() * 1000);
    dropped = 0;
    // Keys are looked up a chunk at a time (one multiGet on RocksDB), never a whole batch at once.
    BitSet out = new BitSet(input.size());
    List<Row> stateKeys = new ArrayList<>(LOOKUP_CHUNK);
    long[] expiries = new long[LOOKUP_CHUNK];
    int[] positions = new int[LOOKUP_CHUNK];
    long watermarkMicros = info.watermarkMs() * 1000;
    int i = -1;
    for (Row row : input.project(keys.columns())) {
      i++;
      Instant eventTime = keys.eventTime(row);
      long eventMicros = eventTime == null ? 0 : DedupColumns.micros(eventTime);
      // Strictly before the watermark is late; a null event time never is (Spark keeps such rows).
      if (eventTime != null && eventMicros < watermarkMicros) {
        dropped++;
        info.lateRows().add(operatorName(), schema, input.rows().get(i), info.watermarkMs());
        continue;
      }
      positions[stateKeys.size()] = i;
      expiries[stateKeys.size()] = eventTime == null ? Long.MAX_VALUE : eventMicros + delayMicros;
      stateKeys.add(keys.keyOf(row));
      if (stateKeys.size() == LOOKUP_CHUNK) {
        putChunk(store, stateKeys, expiries, positions, out);
      }
    }
    putChunk(store, stateKeys, expiries, positions, out);
    return input.keep(out);
  }

  private void putChunk(StateStore store, List<Row> stateKeys, long[] expiries, int[] positions, BitSet out) {
    if (stateKeys.isEmpty()) {
      return;
    }
    boolean[] first = store.putAllIfAbsentLongs(stateKeys, expiries);
    for (int j = 0; j < first.length; j++) {
      if (first[j]) {
        horizon.add(expiries[j]);
        out.set(positions[j]);
      }
    }
    stateKeys.clear();
  }

  @Override
  public Optional<StateTimeIndex> timeIndex() {
    return Optional.of(EXPIRY);
  }

  @Override
  public String describe() {
    return "DropDuplicatesWithinWatermark" + keys.keyNames(schema);
  }

  @Override
  public String operatorName() {
    return "dedupeWithinWatermark";
  }

  @Override
  public StateSchema stateSchema() {
    return stateSchema;
  }

  /** The delay is not part of it: each key stores its absolute expiry, so a changed delay only affects new keys. */
  @Override
  public Map<String, String> fingerprint() {
    Map<String, String> lines = new LinkedHashMap<>();
    lines.put("operator", operatorName());
    lines.put("keys", String.join(",", keys.keyNames(schema)));
    lines.put("eventTime", schema.field(keys.eventTime()).name());
    return lines;
  }

  @Override
  public boolean needsNoDataBatch(long previousMs, long currentMs) {
    return horizon.wouldEvict(previousMs, currentMs);
  }

  @Override
  public long lastDroppedByWatermark() {
    return dropped;
  }
}
