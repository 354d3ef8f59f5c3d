package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.internal.plan.TransformSpec;
import dev.sluice.table.types.StructType;
import java.util.List;
import java.util.Objects;

/**
 * A streaming {@code groupBy(session_window(time, gap), keys…).agg(…)} as Spark runs it: the output is the
 * struct column {@code session_window} ({@code start}, {@code end}), the key columns, then the aggregates.
 * State holds, per group key, its open sessions with their aggregate buffers; a new row that overlaps or
 * touches sessions merges them. A session is final once the watermark reaches its end: {@code append} emits
 * it then, once, and forgets it; {@code complete} emits every session each batch and never forgets.
 * {@code update} is refused, as in Spark (a merge would retract rows already emitted).
 *
 * <p>A row is late (dropped, counted, passed to the late-row receiver) when its event time is at or before
 * the watermark: a later row could otherwise reopen a session already emitted. A row without event time
 * belongs to no session and is skipped, not late.
 */
public record SessionAggregationSpec(List<String> keys, SessionWindowSpec session, List<AggregateSpec> aggregates,
    OutputMode outputMode, WatermarkSpec watermark) implements TransformSpec {
  public SessionAggregationSpec {
    keys = List.copyOf(keys);
    aggregates = List.copyOf(aggregates);
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(outputMode, "outputMode");
  }

  @Override
  public StatefulTransform bind(StructType input) {
    return SessionAggregation.bind(this, input);
  }

  /** The grouping as SQL, e.g. {@code session_window(ts, '10 minutes'), user}. */
  public String groupingSql() {
    return keys.isEmpty() ? session.sql() : session.sql() + ", " + String.join(", ", keys);
  }
}
