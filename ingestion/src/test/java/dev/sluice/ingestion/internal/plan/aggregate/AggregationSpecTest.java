package dev.sluice.ingestion.internal.plan.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AggregationSpecTest {
  private static final StructType INPUT = StructType.of(StructField.of("ts", PrimitiveType.TIMESTAMP),
      StructField.of("user", PrimitiveType.STRING), StructField.of("amount", PrimitiveType.LONG),
      StructField.of("tags", new ArrayType(PrimitiveType.STRING, true)), StructField.of("day", PrimitiveType.STRING));
  private static final WindowSpec WINDOW = WindowSpec.tumbling("ts", Duration.ofMinutes(10));
  private static final WatermarkSpec WATERMARK = new WatermarkSpec("ts", Duration.ofMinutes(5));

  private static StatefulTransform bind(List<String> keys, WindowSpec window, OutputMode mode, WatermarkSpec watermark,
      AggregateSpec... aggregates) {
    return new AggregationSpec(keys, window, List.of(aggregates), mode, watermark).bind(INPUT);
  }

  @Test
  void outputIsTheWindowThenTheKeysThenTheAggregates() {
    StatefulTransform step = bind(List.of("USER"), WINDOW, OutputMode.UPDATE, WATERMARK, AggregateSpec.count());
    assertThat(step.schema()).isEqualTo(StructType.of(StructField.of("window", GroupKeys.WINDOW_TYPE, false),
        StructField.of("user", PrimitiveType.STRING), StructField.of("count", PrimitiveType.LONG, false)));
    assertThat(step.stateSchema().keySchema()).isEqualTo(StructType.of(
        StructField.of("window", GroupKeys.WINDOW_TYPE, false), StructField.of("user", PrimitiveType.STRING)));
    assertThat(step.operatorName()).isEqualTo("stateStoreSave");
  }

  @Test
  void stateValuesHoldEachAggregatesBuffers() {
    StatefulTransform step = bind(List.of("user"), null, OutputMode.COMPLETE, null, AggregateSpec.avg("amount"),
        AggregateSpec.approxCountDistinct("user"));
    assertThat(step.stateSchema().valueSchema()).isEqualTo(StructType.of(
        StructField.of("a0_sum", PrimitiveType.DOUBLE, true), StructField.of("a0_count", PrimitiveType.LONG, false),
        StructField.of("a1_registers", PrimitiveType.BINARY, false)));
  }

  @Test
  void fingerprintNamesWhatShapesTheStateButNotTheDelayOrAliases() {
    StatefulTransform step = bind(List.of("user"), WINDOW, OutputMode.APPEND, WATERMARK,
        AggregateSpec.sum("amount").as("total"), AggregateSpec.approxCountDistinct("user", 0.01));
    assertThat(step.fingerprint()).containsExactly(
        Map.entry("keys", "user"),
        Map.entry("window", "window(ts, 10 minutes)"),
        Map.entry("aggregates", "sum(amount), approx_count_distinct(user, 0.01)"),
        Map.entry("outputMode", "append"),
        Map.entry("eventTimeColumn", "ts"));
    StatefulTransform laterDelay = bind(List.of("user"), WINDOW, OutputMode.APPEND,
        new WatermarkSpec("ts", Duration.ofHours(1)), AggregateSpec.sum("amount"),
        AggregateSpec.approxCountDistinct("user", 0.01));
    assertThat(laterDelay.fingerprint()).isEqualTo(step.fingerprint());
    assertThat(step.describe())
        .isEqualTo("Aggregate[window(ts, 10 minutes), user; sum(amount) AS total, approx_count_distinct(user, 0.01)"
            + " AS approx_count_distinct(user); append]");
  }

  @Test
  void appendWithoutAWatermarkIsRefusedWithTheFix() {
    assertThatThrownBy(() -> bind(List.of("user"), WINDOW, OutputMode.APPEND, null, AggregateSpec.count()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Streaming aggregation (stateStoreSave): output mode append is not supported here because the"
            + " input has no watermark, so no group would ever be final. Define withWatermark(column, delay) on the"
            + " event time and group by window(column, size) (or by the column itself), or use output mode update or"
            + " complete.");
  }

  @Test
  void appendWithoutAKeyOnTheWatermarkedColumnIsRefused() {
    assertThatThrownBy(() -> bind(List.of("user"), null, OutputMode.APPEND, WATERMARK, AggregateSpec.count()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("output mode append is not supported here because no group key is on the watermark"
            + " column 'ts'");
  }

  @Test
  void unknownColumnsAreNamedWithTheKnownOnes() {
    assertThatThrownBy(() -> bind(List.of("usr"), null, OutputMode.UPDATE, null, AggregateSpec.count()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Streaming aggregation (stateStoreSave): unknown group key column 'usr'. Known columns: ts, user,"
            + " amount, tags, day. Fix the name or add the column before the aggregation.");
    assertThatThrownBy(() -> bind(List.of(), null, OutputMode.UPDATE, null, AggregateSpec.sum("amt")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown aggregate sum(amt) column 'amt'");
    assertThatThrownBy(() -> bind(List.of(), WindowSpec.tumbling("time", Duration.ofMinutes(1)), OutputMode.UPDATE,
        null, AggregateSpec.count()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown window column 'time'");
  }

  @Test
  void mistypedColumnsAreRefusedWithACast() {
    assertThatThrownBy(() -> bind(List.of(), WindowSpec.tumbling("day", Duration.ofDays(1)), OutputMode.UPDATE, null,
        AggregateSpec.count()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Streaming aggregation (stateStoreSave): window(day, 1 days) needs a timestamp column, but 'day'"
            + " is string. Cast it first, e.g. withColumn(\"day\", \"CAST(day AS TIMESTAMP)\").");
    assertThatThrownBy(() -> bind(List.of(), null, OutputMode.UPDATE, null, AggregateSpec.avg("user")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Streaming aggregation (stateStoreSave): avg(user) needs a numeric column, but 'user' is string."
            + " Cast it first, e.g. CAST(user AS DOUBLE), or use count/min/max.");
    assertThatThrownBy(() -> bind(List.of(), null, OutputMode.UPDATE, null, AggregateSpec.max("tags")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max(tags) needs values that can be ordered, but 'tags' is array");
    assertThatThrownBy(() -> bind(List.of("day"), null, OutputMode.UPDATE, new WatermarkSpec("day", Duration.ZERO),
        AggregateSpec.count()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the watermark column 'day' is string, but event time must be a timestamp");
  }

  @Test
  void clashingOutputNamesAskForAnAlias() {
    assertThatThrownBy(() -> bind(List.of("user"), null, OutputMode.UPDATE, null, AggregateSpec.count(),
        AggregateSpec.sum("amount").as("count")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("output columns [user, count, count] are not unique")
        .hasMessageContaining("Give the clashing aggregates an alias");
  }

  @Test
  void aggregatesParseFromSqlText() {
    assertThat(AggregateSpec.parse("count(*)")).isEqualTo(AggregateSpec.count());
    assertThat(AggregateSpec.parse("COUNT(1) AS n")).isEqualTo(AggregateSpec.count().as("n"));
    assertThat(AggregateSpec.parse("sum(amount) total")).isEqualTo(AggregateSpec.sum("amount").as("total"));
    assertThat(AggregateSpec.parse("mean(`the amount`)")).isEqualTo(AggregateSpec.avg("the amount"));
    assertThat(AggregateSpec.parse("approx_count_distinct(user, 0.01)"))
        .isEqualTo(AggregateSpec.approxCountDistinct("user", 0.01));
    assertThat(AggregateSpec.parse("approx_count_distinct(user)").relativeSd()).isEqualTo(0.05);
  }

  @Test
  void badAggregateTextIsRefusedWithTheForm() {
    assertThatThrownBy(() -> AggregateSpec.parse("sum amount"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot read the aggregate 'sum amount': write function(column) with an optional alias, e.g."
            + " 'count(*)', 'sum(amount) AS total', 'approx_count_distinct(user, 0.01)'");
    assertThatThrownBy(() -> AggregateSpec.parse("median(amount)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Unknown aggregate function 'median'; streaming aggregations support count, sum, avg, min, max"
            + " and approx_count_distinct");
    assertThatThrownBy(() -> AggregateSpec.parse("sum(*)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sum(*) is not an aggregate: only count takes *");
    assertThatThrownBy(() -> AggregateSpec.parse("sum(amount, 0.1)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("only approx_count_distinct takes a second argument");
    assertThatThrownBy(() -> AggregateSpec.approxCountDistinct("user", 0.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the relative standard deviation must be between 0.003 and 0.39");
  }
}
