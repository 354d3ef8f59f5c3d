package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.internal.plan.arbitrary.TwsLayout.Item;
import dev.sluice.ingestion.stateful.ExpiredTimerInfo;
import dev.sluice.ingestion.stateful.StatefulProcessor;
import dev.sluice.ingestion.stateful.TimeMode;
import dev.sluice.ingestion.stateful.TimerValues;
import dev.sluice.ingestion.state.StateEntry;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code transformWithState} with Spark 4's {@code TransformWithStateExec} order: per batch {@code init}, then
 * {@code handleInputRows} per key with data (rows in arrival order; with {@code TimeMode.EventTime} rows older than
 * the watermark are late and dropped first), then {@code handleExpiredTimer} per timer strictly before the
 * threshold (the batch's processing time, or the watermark), earliest first and deleted before the call, then TTL
 * eviction of values whose expiry is at or before the batch's processing time, then {@code close}. Finding due
 * timers and expired values scans the store, and only when the in-memory horizons say something is due.
 */
final class TransformWithState<O> implements StatefulTransform {
  private final TransformWithStateSpec<O> spec;
  private final KeyGroups keys;
  private final LateRowFilter late;
  private final TwsLayout layout;
  private final ProcessorHandle handle;
  private final DueTimes timers;
  private final DueTimes expiries;
  private final StateSchema stateSchema;
  private final Map<String, String> fingerprint;
  private long dropped;

  TransformWithState(TransformWithStateSpec<O> spec, KeyGroups keys, LateRowFilter late, TwsLayout layout,
      ProcessorHandle handle, DueTimes timers, DueTimes expiries) {
    this.spec = spec;
    this.keys = keys;
    this.late = late;
    this.layout = layout;
    this.handle = handle;
    this.timers = timers;
    this.expiries = expiries;
    this.stateSchema = new StateSchema(layout.keySchema(), TwsLayout.VALUE);
    this.fingerprint = spec.fingerprintLines();
  }

  private record Due(Row groupKey, long timerMs) {}

  @Override
  public StructType schema() {
    return spec.outputEncoder().schema();
  }

  @Override
  public Batch apply(Batch input, BatchInfo info) {
    StateStore store = info.store(this);
    long now = info.batchTimestamp().toEpochMilli();
    long watermark = info.watermarkMs();
    TimerValues clocks = new Clocks(now, watermark);
    StatefulProcessor<Row, Row, O> processor = spec.processor();
    handle.startBatch(store, now);
    processor.setHandle(handle);
    processor.init(spec.declaredMode(), spec.timeMode());
    List<Row> out = new ArrayList<>();
    dropped = 0;
    List<Row> accepted = new ArrayList<>(input.size());
    for (Row row : input.rows()) {
      if (late.isLate(row, watermark)) {
        dropped++;
        info.lateRows().add(operatorName(), input.schema(), row, watermark);
      } else {
        accepted.add(row);
      }
    }
    for (Map.Entry<Row, List<Row>> g : keys.group(accepted).entrySet()) {
      handle.setKey(g.getKey());
      emit(processor.handleInputRows(g.getKey(), g.getValue().iterator(), clocks), out);
    }
    long threshold = spec.timeMode() == TimeMode.PROCESSING_TIME ? now : watermark;
    boolean timersDue = spec.timeMode() != TimeMode.NONE && timers.dueBefore(threshold);
    boolean expiriesDue = handle.anyTtl() && expiries.dueBefore(now + 1);
    if (timersDue || expiriesDue) {
      scan(store, processor, clocks, threshold, now, out);
    }
    handle.setKey(null);
    processor.close();
    return new Batch(schema(), out);
  }

  /** One pass over the store: fires due timers, then evicts expired values; rebuilds both horizons. */
  private void scan(StateStore store, StatefulProcessor<Row, Row, O> processor, TimerValues clocks, long threshold,
      long now, List<Row> out) {
    timers.reset();
    expiries.reset();
    List<Due> due = new ArrayList<>();
    List<Row> expired = new ArrayList<>();
    for (Iterator<StateEntry> it = store.iterator(); it.hasNext(); ) {
      StateEntry e = it.next();
      Long expiresAt = TwsLayout.expiresAt(e.value());
      if (expiresAt != null) {
        if (expiresAt <= now) {
          expired.add(e.key());
        } else {
          expiries.add(expiresAt);
        }
      }
      Long timerAt = TwsLayout.timerAt(e.value());
      if (timerAt == null) {
        continue;
      }
      for (Item item : TwsLayout.items(e.value())) {
        long t = TwsLayout.timerOf(item);
        if (spec.timeMode() != TimeMode.NONE && t < threshold) {
          due.add(new Due(layout.groupKey(e.key()), t));
        } else {
          timers.add(t);
        }
      }
    }
    due.sort(Comparator.comparingLong(Due::timerMs));
    for (Due d : due) {
      handle.setKey(d.groupKey());
      handle.deleteTimer(d.timerMs());
      ExpiredTimerInfo info = d::timerMs;
      emit(processor.handleExpiredTimer(d.groupKey(), clocks, info), out);
    }
    for (Row k : expired) {
      // A handler above may have rewritten the entry; evict what is expired now.
      Row value = store.get(k);
      if (value == null) {
        continue;
      }
      List<Item> items = TwsLayout.items(value);
      items.removeIf(i -> i.expired(now));
      if (items.isEmpty()) {
        store.remove(k);
      } else {
        Row kept = TwsLayout.value(items, false);
        expiries.add(TwsLayout.expiresAt(kept));
        store.put(k, kept);
      }
    }
  }

  private void emit(Iterator<O> results, List<Row> out) {
    if (results == null) {
      return;
    }
    while (results.hasNext()) {
      O o = results.next();
      if (o != null) {
        out.add(spec.outputEncoder().toRow(o));
      }
    }
  }

  private record Clocks(long processing, long watermark) implements TimerValues {
    @Override
    public long getCurrentProcessingTimeInMs() {
      return processing;
    }

    @Override
    public long getCurrentWatermarkInMs() {
      return watermark;
    }
  }

  @Override
  public String describe() {
    return spec.describe();
  }

  @Override
  public String operatorName() {
    return "transformWithStateExec";
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
    return spec.timeMode() == TimeMode.EVENT_TIME && timers.dueBefore(currentMs);
  }

  @Override
  public boolean timerDue(long processingTimeMs, Supplier<StateStore> committed) {
    boolean ttl = handle.anyTtl();
    if (spec.timeMode() != TimeMode.PROCESSING_TIME && !ttl) {
      return false;
    }
    if (!timers.known() || !expiries.known()) {
      learn(committed.get());
    }
    return spec.timeMode() == TimeMode.PROCESSING_TIME && timers.dueBefore(processingTimeMs)
        || handle.anyTtl() && expiries.dueBefore(processingTimeMs + 1);
  }

  /** Reads the due times of a store this run has not gone through yet. */
  private void learn(StateStore store) {
    timers.reset();
    expiries.reset();
    for (Iterator<StateEntry> it = store.iterator(); it.hasNext(); ) {
      Row value = it.next().value();
      Long expiresAt = TwsLayout.expiresAt(value);
      if (expiresAt != null) {
        expiries.add(expiresAt);
      }
      if (TwsLayout.timerAt(value) != null) {
        TwsLayout.items(value).forEach(i -> timers.add(TwsLayout.timerOf(i)));
      }
    }
  }

  @Override
  public long lastDroppedByWatermark() {
    return dropped;
  }
}
