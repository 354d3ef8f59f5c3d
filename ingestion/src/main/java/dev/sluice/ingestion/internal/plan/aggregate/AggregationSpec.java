package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.internal.plan.TransformSpec;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A streaming {@code groupBy(keys).agg(aggregates)} as Spark Structured Streaming runs it: group keys
 * are an optional time {@link WindowSpec} (output first, as the struct column {@code window} with
 * {@code start} and {@code end}) followed by the named columns; then one column per aggregate.
 *
 * <p>With a watermark on the event time, and the window (or a key column) on that event time, groups
 * whose window ends at or before the watermark are final: {@code append} emits them once and drops them
 * from state, {@code update} drops them after emitting the groups this batch changed, and input that
 * would only land in such groups is late (dropped, counted and passed to the batch's late-row
 * receiver). {@code complete} emits every group each batch and, as in Spark, never drops state or input.
 *
 * <p>Choices where Spark leaves room or the brief differs, kept deliberately:
 * <ul>
 *   <li>Lateness is Spark's state-eviction predicate, per (row, window): a contribution is dropped when
 *       its window's end is at or before the watermark, not when the row's event time is below it. A row
 *       counts as late (metric, late-row receiver) only when all its windows are final; a sliding-window
 *       row still counts in its open windows. Grouping by the watermarked column itself: late when the
 *       value is at or before the watermark.</li>
 *   <li>One watermark ({@code BatchInfo.watermarkMs}) both filters late input and evicts, as Spark before
 *       3.4; Spark 3.4+ filters with the previous batch's watermark, which keeps a few more rows.</li>
 *   <li>Rows with a null event time belong to no window and are skipped (Spark filters them), not late.</li>
 *   <li>The window is always the first output column; reorder with a projection if needed.</li>
 *   <li>{@code sum}/{@code avg} refuse non-numeric columns instead of casting strings to double.</li>
 *   <li>{@code approx_count_distinct} hashes like Spark but estimates without its bias tables (see
 *       {@code HyperLogLog}): counts agree with Spark within the relative standard deviation, not exactly.</li>
 * </ul>
 *
 * @param keys grouping column names (without the window), in output order
 * @param window the time window key, or null
 * @param aggregates the aggregates, in output order
 * @param watermark the watermark defined on the input, or null
 */
public record AggregationSpec(List<String> keys, WindowSpec window, List<AggregateSpec> aggregates,
    OutputMode outputMode, WatermarkSpec watermark) implements TransformSpec {
  public AggregationSpec {
    keys = keys == null ? List.of() : List.copyOf(keys);
    aggregates = aggregates == null ? List.of() : List.copyOf(aggregates);
    Objects.requireNonNull(outputMode, "outputMode");
  }

  /**
   * @throws IllegalArgumentException naming an unknown or mistyped column, clashing output names, or
   *     output mode append without a watermarked event-time key
   */
  @Override
  public StatefulTransform bind(StructType input) {
    return StreamingAggregation.bind(this, input);
  }

  /** The grouping as SQL, e.g. {@code window(ts, 10 minutes), user}. */
  public String groupingSql() {
    List<String> parts = new ArrayList<>();
    if (window != null) {
      parts.add(window.sql());
    }
    parts.addAll(keys);
    return String.join(", ", parts);
  }

  /** The aggregates as SQL with their output names, e.g. {@code count(1) AS count, sum(x) AS total}. */
  public String aggregatesSql() {
    return aggregates.stream().map(a -> a.sql() + " AS " + a.name()).collect(Collectors.joining(", "));
  }
}
