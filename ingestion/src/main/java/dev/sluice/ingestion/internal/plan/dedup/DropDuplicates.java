package dev.sluice.ingestion.internal.plan.dedup;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.ingestion.state.StateTimeIndex;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code dropDuplicates(columns)} with Spark's semantics: the first row of each key passes, later ones are
 * dropped. With a watermark, rows whose event time is before it are late and dropped; the state of a key
 * is evicted once the watermark passes its event time, which needs the event-time column among the key
 * columns. Without that, state grows forever.
 */
final class DropDuplicates implements StatefulTransform {
  private static final Logger LOG = LoggerFactory.getLogger(DropDuplicates.class);
  private static final Row NO_VALUE = Row.of();

  private final StructType schema;
  private final DedupColumns keys;
  private final int keyEventTime;
  private final StateSchema stateSchema;
  private final EvictionHorizon horizon = new EvictionHorizon();
  /** Keys evict by the event time among them (null when there is none); the key alone decides. */
  private final StateTimeIndex timeIndex;
  private long dropped;

  DropDuplicates(StructType schema, DedupColumns keys) {
    this.schema = schema;
    this.keys = keys;
    this.keyEventTime = keys.keyPosition();
    this.stateSchema = new StateSchema(keys.keySchema(), StructType.empty());
    this.timeIndex = keyEventTime < 0 ? null : StateTimeIndex.ofKey(key -> {
      Object t = key.get(keyEventTime);
      return evictAt(t == null ? null : DedupColumns.micros((Instant) t));
    });
    if (keyEventTime < 0) {
      LOG.warn("{}: the state of this deduplication grows without bound, because {}. Use"
          + " dropDuplicatesWithinWatermark, or add the event-time column to the key columns of dropDuplicates"
          + " so that old keys are evicted as the watermark passes them", describe(),
          keys.eventTime() < 0 ? "the stream has no watermark (call withWatermark first)"
              : "the event-time column '" + schema.field(keys.eventTime()).name() + "' is not among the key columns");
    }
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Batch apply(Batch input, BatchInfo info) {
    StateStore store = info.store(this);
    long watermarkMicros = info.watermarkMs() * 1000;
    if (keyEventTime >= 0) {
      horizon.evict(store, timeIndex, watermarkMicros);
    }
    dropped = 0;
    BitSet out = new BitSet(input.size());
    int i = -1;
    for (Row row : input.rows()) {
      i++;
      if (keys.isLate(row, info.watermarkMs())) {
        dropped++;
        info.lateRows().add(operatorName(), schema, row, info.watermarkMs());
        continue;
      }
      Row key = keys.keyOf(row);
      if (store.putIfAbsent(key, NO_VALUE)) {
        out.set(i);
        if (keyEventTime >= 0) {
          horizon.add(evictAt(keys.eventMicros(row)));
        }
      }
    }
    return input.keep(out);
  }

  @Override
  public Optional<StateTimeIndex> timeIndex() {
    return Optional.ofNullable(timeIndex);
  }

  /** A key is evicted once the watermark is strictly after its event time; never with a null event time. */
  private static long evictAt(Long eventMicros) {
    return eventMicros == null ? Long.MAX_VALUE : eventMicros + 1;
  }

  @Override
  public String describe() {
    return "DropDuplicates" + keys.keyNames(schema);
  }

  @Override
  public String operatorName() {
    return "dedupe";
  }

  @Override
  public StateSchema stateSchema() {
    return stateSchema;
  }

  @Override
  public Map<String, String> fingerprint() {
    Map<String, String> lines = new LinkedHashMap<>();
    lines.put("operator", operatorName());
    lines.put("keys", String.join(",", keys.keyNames(schema)));
    lines.put("eventTime", keys.eventTime() < 0 ? "none" : schema.field(keys.eventTime()).name());
    return lines;
  }

  @Override
  public boolean needsNoDataBatch(long previousMs, long currentMs) {
    return keyEventTime >= 0 && horizon.wouldEvict(previousMs, currentMs);
  }

  @Override
  public long lastDroppedByWatermark() {
    return dropped;
  }
}
