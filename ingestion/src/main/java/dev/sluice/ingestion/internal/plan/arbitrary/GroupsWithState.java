package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.stateful.Encoder;
import dev.sluice.ingestion.stateful.GroupStateTimeout;
import dev.sluice.ingestion.state.StateEntry;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code mapGroupsWithState} / {@code flatMapGroupsWithState} with Spark's {@code FlatMapGroupsWithStateExec}
 * semantics: the function is called once per key with data in the batch (rows in arrival order), then once per key
 * whose timeout is strictly before the threshold (the batch's processing time, or the watermark) and that had no
 * data in the batch. The timeout is reset at every call. With {@code EventTimeTimeout}, rows older than the
 * watermark are late and dropped first. A key's store value is {@code (state, timeoutMs)}, so that timeouts
 * survive a restart; the state is null for a key that was removed but keeps a timeout.
 */
final class GroupsWithState<S, O> implements StatefulTransform {
  private final GroupsWithStateSpec<S, O> spec;
  private final KeyGroups keys;
  private final LateRowFilter late;
  private final StateSchema stateSchema;
  private final DueTimes due = new DueTimes();
  private final Map<String, String> fingerprint;
  private long dropped;

  GroupsWithState(GroupsWithStateSpec<S, O> spec, KeyGroups keys, LateRowFilter late) {
    this.spec = spec;
    this.keys = keys;
    this.late = late;
    this.stateSchema = new StateSchema(keys.keySchema(), StructType.of(
        StructField.of("state", spec.stateEncoder().schema()), StructField.of("timeoutMs", PrimitiveType.LONG)));
    this.fingerprint = spec.fingerprintLines();
  }

  @Override
  public StructType schema() {
    return spec.outputEncoder().schema();
  }

  @Override
  public Batch apply(Batch input, BatchInfo info) {
    StateStore store = info.store(this);
    long now = info.batchTimestamp().toEpochMilli();
    long watermark = info.watermarkMs();
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
    List<Row> out = new ArrayList<>();
    Map<Row, List<Row>> groups = keys.group(accepted);
    for (Map.Entry<Row, List<Row>> g : groups.entrySet()) {
      Row stored = store.get(g.getKey());
      call(store, g.getKey(), stored, g.getValue().iterator(), false, now, watermark, out);
    }
    if (spec.timeout() != GroupStateTimeout.NO_TIMEOUT) {
      fireTimeouts(store, groups.keySet(), now, watermark, out);
    }
    return new Batch(schema(), out);
  }

  /** Spark processes timeouts after the data: a key that had data in this batch does not time out in it. */
  private void fireTimeouts(StateStore store, Set<Row> withData, long now, long watermark, List<Row> out) {
    long threshold = threshold(now, watermark);
    if (!due.dueBefore(threshold)) {
      return;
    }
    due.reset();
    List<StateEntry> timedOut = new ArrayList<>();
    for (Iterator<StateEntry> it = store.iterator(); it.hasNext(); ) {
      StateEntry e = it.next();
      long timeout = (Long) e.value().get(1);
      if (timeout != GroupStateImpl.NO_TIMESTAMP && timeout < threshold && !withData.contains(e.key())) {
        timedOut.add(e);
      } else {
        due.add(timeout);
      }
    }
    for (StateEntry e : timedOut) {
      call(store, e.key(), e.value(), Collections.emptyIterator(), true, now, watermark, out);
    }
  }

  private long threshold(long now, long watermark) {
    return spec.timeout() == GroupStateTimeout.PROCESSING_TIME_TIMEOUT ? now
        : spec.watermarkColumn() == null ? Long.MIN_VALUE : watermark;
  }

  private void call(StateStore store, Row key, Row stored, Iterator<Row> rows, boolean timedOut, long now,
      long watermark, List<Row> out) {
    Row stateRow = stored == null ? null : (Row) stored.get(0);
    long storedTimeout = stored == null ? GroupStateImpl.NO_TIMESTAMP : (Long) stored.get(1);
    S value = stateRow == null ? null : spec.stateEncoder().fromRow(stateRow);
    GroupStateImpl<S> state = new GroupStateImpl<>(value, spec.timeout(), now, watermark,
        spec.watermarkColumn() != null, timedOut);
    Iterator<O> results;
    try {
      results = spec.function().call(key, rows, state);
      while (results.hasNext()) {
        O o = results.next();
        if (o != null) {
          out.add(spec.outputEncoder().toRow(o));
        }
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(spec.operator() + " function " + GroupFunction.stableName(
          spec.function().userClass()) + " failed for key " + key + ": " + e, e);
    }
    long timeout = state.timeoutMs();
    due.add(timeout);
    if (state.removed() && timeout == GroupStateImpl.NO_TIMESTAMP) {
      if (stored != null) {
        store.remove(key);
      }
    } else if (state.updated() || state.removed() || timeout != storedTimeout) {
      Row newState = state.value() == null ? null : spec.stateEncoder().toRow(state.value());
      store.put(key, Row.of(newState, timeout));
    }
  }

  @Override
  public String describe() {
    return spec.operator() + "[" + String.join(", ", keys.names()) + "]";
  }

  @Override
  public String operatorName() {
    return "flatMapGroupsWithState";
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
    return spec.timeout() == GroupStateTimeout.EVENT_TIME_TIMEOUT && spec.watermarkColumn() != null
        && due.dueBefore(currentMs);
  }

  @Override
  public boolean timerDue(long processingTimeMs, Supplier<StateStore> committed) {
    if (spec.timeout() != GroupStateTimeout.PROCESSING_TIME_TIMEOUT) {
      return false;
    }
    if (!due.known()) {
      due.reset();
      for (Iterator<StateEntry> it = committed.get().iterator(); it.hasNext(); ) {
        due.add((Long) it.next().value().get(1));
      }
    }
    return due.dueBefore(processingTimeMs);
  }

  @Override
  public long lastDroppedByWatermark() {
    return dropped;
  }
}
