package dev.sluice.gold.internal;

import dev.sluice.config.Interval;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchTransformer;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ledger and routing step of append mode, just before the watermark and the aggregation. A window
 * written in append mode is final, so a change that is not an insert (update pre/post-image, delete) can
 * neither retract nor replace its old contribution: such rows go to the late table ({@code <table>_late},
 * {@code _late_operator = "gold append: <change type> not applied"}, {@code txn(<query id>:late-changes, batch
 * id)}) and count as {@code late}. Inserts
 * whose every window the watermark has passed count as {@code late} too (the engine keeps them in the same
 * table); other inserts with an event time are {@code written}; the rest of the change rows are
 * {@code filtered} (by a join, the filter, or a null event time). An insert whose event time is more than
 * {@code aggregate.watermark.max_future_skew} after the batch's timestamp can't be real yet (epoch
 * milliseconds read as seconds): it would move the watermark there and finalise every window, so it goes to
 * the late table too ({@code _late_operator = "gold append: event time beyond max_future_skew <skew>"}).
 */
final class AppendRouter implements BatchTransformer {
  private static final int WRITTEN = 1;
  private static final int LATE = 2;

  private final String timeColumn;
  private final LateRule lateRule;
  private final Table late;
  private final LedgerState ledger;
  private final Interval maxFutureSkew;

  /** When the engine treats a row as late: the same rule here, so the ledger counts what the engine drops. */
  interface LateRule {
    boolean isLate(long eventMicros, long watermarkMicros);

    /** Time windows: late when every window containing the row ends at or before the watermark. */
    static LateRule windows(long sizeMicros, long slideMicros) {
      return (t, watermark) -> GroupAggregation.windowStarts(t, sizeMicros, slideMicros).stream()
          .allMatch(s -> s + sizeMicros <= watermark);
    }

    /** Session windows: late at or before the watermark (it could reopen a session already written). */
    static LateRule sessions() {
      return (t, watermark) -> t <= watermark;
    }
  }

  AppendRouter(String timeColumn, LateRule lateRule, Table late, LedgerState ledger, Interval maxFutureSkew) {
    this.maxFutureSkew = maxFutureSkew;
    this.timeColumn = timeColumn;
    this.lateRule = lateRule;
    this.late = late;
    this.ledger = ledger;
  }

  @Override
  public StructType outputSchema(StructType input) {
    List<StructField> fields = new ArrayList<>();
    for (StructField f : input.fields()) {
      if (!f.name().equals(TagChanges.SNAPSHOT) && !f.name().equals(TagChanges.ROW)) {
        fields.add(f);
      }
    }
    if (input.indexOf(timeColumn) < 0) {
      throw GoldErrors.unknownColumn(timeColumn, "aggregate.window.column", input);
    }
    return new StructType(fields);
  }

  @Override
  public Batch apply(Batch batch, Context context) {
    StructType in = batch.schema();
    StructType out = outputSchema(in);
    int id = in.indexOf(TagChanges.ROW);
    int changeType = in.indexOf("_change_type");
    int time = in.indexOf(timeColumn);
    long watermarkMicros = context.watermarkMs() * 1000;
    Instant limit = context.batchTimestamp().plus(maxFutureSkew.duration());
    Map<Long, Integer> status = new HashMap<>();
    Batch.Builder kept = Batch.builder(out);
    List<Row> notApplied = new ArrayList<>();
    for (Row r : batch.rows()) {
      Long rowId = (Long) r.get(id);
      Object type = r.get(changeType);
      if (!"insert".equals(type)) {
        notApplied.add(lateRow(r, in, out, "gold append: " + type + " not applied", context));
        status.merge(rowId, LATE, Math::max);
        continue;
      }
      Instant t = (Instant) r.get(time);
      if (t == null) {
        continue;
      }
      if (t.isAfter(limit)) {
        notApplied.add(lateRow(r, in, out, "gold append: event time beyond max_future_skew " + maxFutureSkew, context));
        status.merge(rowId, LATE, Math::max);
        continue;
      }
      status.merge(rowId, lateRule.isLate(GroupAggregation.micros(t), watermarkMicros) ? LATE : WRITTEN, Math::max);
      kept.add(strip(r, in, out.size()));
    }
    long written = status.values().stream().filter(s -> s == WRITTEN).count();
    long lateRows = status.size() - written;
    Ledger.of(written, ledger.rowsIn(context.batchId()) - status.size(), lateRows).forEach(context::count);
    if (!notApplied.isEmpty()) {
      StructType schema = withLateColumns(out);
      if (!late.exists()) {
        late.create(schema).ifNotExists().commit();
      }
      late.newAppend().schema(schema).rows(notApplied).mergeSchema(true).txn(dev.sluice.ingestion.BatchContext.appId(context.queryId(), "late-changes"), context.batchId())
          .operation("STREAMING LATE ROWS").commit();
    }
    return kept.build();
  }

  private static Row strip(Row r, StructType in, int width) {
    Object[] values = new Object[width];
    int at = 0;
    for (int i = 0; i < in.size(); i++) {
      String name = in.field(i).name();
      if (!name.equals(TagChanges.SNAPSHOT) && !name.equals(TagChanges.ROW)) {
        values[at++] = r.get(i);
      }
    }
    return Row.of(values);
  }

  private static Row lateRow(Row r, StructType in, StructType out, String reason, Context context) {
    Object[] values = new Object[out.size() + 3];
    Row stripped = strip(r, in, out.size());
    for (int i = 0; i < out.size(); i++) {
      values[i] = stripped.get(i);
    }
    values[out.size()] = reason;
    values[out.size() + 1] = context.batchId();
    values[out.size() + 2] = Instant.ofEpochMilli(context.watermarkMs());
    return Row.of(values);
  }

  /** The columns the engine's late-rows writer adds. */
  static StructType withLateColumns(StructType schema) {
    return schema.add("_late_operator", PrimitiveType.STRING).add("_late_batch_id", PrimitiveType.LONG)
        .add("_late_watermark", PrimitiveType.TIMESTAMP);
  }
}
