package dev.sluice.table.internal.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.expressions.CompareOp;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FilePrunerTest {
  private static final StructType SCHEMA = StructType.empty()
      .add("x", PrimitiveType.LONG)
      .add("name", PrimitiveType.STRING)
      .add("ts", PrimitiveType.TIMESTAMP)
      .add("d", PrimitiveType.DOUBLE)
      .add("day", PrimitiveType.DATE)
      .add("region", PrimitiveType.STRING);
  private static final List<String> PARTITIONS = List.of("day", "region");
  private static final Map<String, String> PARTITION = Map.of("day", "2021-09-08", "region", "eu");

  /** A file whose x values lie in [10, 20], 100 rows, 5 of them with a null x. */
  private static final ColumnStats X_10_20 = ColumnStats.of(100L, Map.of("x", 10L), Map.of("x", 20L), Map.of("x", 5L));

  private static boolean might(Predicate p, Map<String, String> partition, ColumnStats stats) {
    return FilePruner.of(p.bind(SCHEMA), PARTITIONS).mightMatch(partition, stats);
  }

  private static boolean might(Predicate p, ColumnStats stats) {
    return might(p, PARTITION, stats);
  }

  @ParameterizedTest(name = "x {0} {1} -> {2}")
  @CsvSource({
      "EQ, 9, false", "EQ, 10, true", "EQ, 15, true", "EQ, 20, true", "EQ, 21, false",
      "LT, 10, false", "LT, 11, true",
      "LE, 9, false", "LE, 10, true",
      "GT, 20, false", "GT, 19, true",
      "GE, 21, false", "GE, 20, true",
      "NE, 15, true", "NE, 10, true"})
  void comparesLiteralWithBounds(CompareOp op, long literal, boolean expected) {
    assertThat(might(Predicate.compare("x", op, literal), X_10_20)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "NOT (x {0} {1}) -> {2}")
  @CsvSource({"LT, 21, false", "LT, 20, true", "GE, 10, false", "GE, 11, true", "EQ, 15, true"})
  void negationBecomesTheOppositeComparison(CompareOp op, long literal, boolean expected) {
    assertThat(might(Predicate.not(Predicate.compare("x", op, literal)), X_10_20)).isEqualTo(expected);
  }

  @Test
  void notEqualPrunesOnlyASingleValuedFile() {
    ColumnStats allSeven = ColumnStats.of(10L, Map.of("x", 7L), Map.of("x", 7L), Map.of("x", 3L));
    assertThat(might(Predicate.ne("x", 7), allSeven)).isFalse();
    assertThat(might(Predicate.ne("x", 8), allSeven)).isTrue();
    assertThat(might(Predicate.not(Predicate.eq("x", 7)), allSeven)).isFalse();
  }

  @Test
  void nullCountsDecideNullChecks() {
    ColumnStats noNulls = ColumnStats.of(10L, Map.of("x", 1L), Map.of("x", 2L), Map.of("x", 0L));
    ColumnStats allNull = ColumnStats.of(10L, Map.of(), Map.of(), Map.of("x", 10L));
    assertThat(might(Predicate.isNull("x"), noNulls)).isFalse();
    assertThat(might(Predicate.isNull("x"), X_10_20)).isTrue();
    assertThat(might(Predicate.isNull("x"), allNull)).isTrue();
    assertThat(might(Predicate.isNotNull("x"), allNull)).isFalse();
    assertThat(might(Predicate.isNotNull("x"), noNulls)).isTrue();
    assertThat(might(Predicate.not(Predicate.isNotNull("x")), noNulls)).isFalse();
  }

  @Test
  void comparisonsCannotMatchAllNullColumns() {
    ColumnStats allNull = ColumnStats.of(10L, Map.of(), Map.of(), Map.of("x", 10L));
    for (CompareOp op : CompareOp.values()) {
      assertThat(might(Predicate.compare("x", op, 1), allNull)).as(op.sql()).isFalse();
    }
    assertThat(might(Predicate.in("x", List.of(1, 2)), allNull)).isFalse();
    assertThat(might(Predicate.not(Predicate.in("x", List.of(1, 2))), allNull)).isFalse();
  }

  @Test
  void missingStatsMightMatch() {
    assertThat(might(Predicate.eq("x", 99), ColumnStats.NONE)).isTrue();
    assertThat(might(Predicate.eq("x", 99), null)).isTrue();
    assertThat(might(Predicate.isNull("x"), ColumnStats.NONE)).isTrue();
    assertThat(might(Predicate.isNotNull("x"), ColumnStats.NONE)).isTrue();
    ColumnStats onlyMax = ColumnStats.of(null, Map.of(), Map.of("x", 20L), Map.of());
    assertThat(might(Predicate.gt("x", 20), onlyMax)).isFalse();
    assertThat(might(Predicate.lt("x", -1000), onlyMax)).isTrue();
    assertThat(might(Predicate.eq("x", 21), onlyMax)).isFalse();
  }

  @Test
  void emptyFilesMatchNothing() {
    assertThat(might(Predicate.alwaysTrue(), ColumnStats.of(0L, Map.of(), Map.of(), Map.of()))).isFalse();
    assertThat(might(Predicate.alwaysTrue(), ColumnStats.NONE)).isTrue();
    assertThat(might(Predicate.alwaysFalse(), ColumnStats.NONE)).isFalse();
  }

  @Test
  void inMatchesWhenAnyValueIsInRange() {
    assertThat(might(Predicate.in("x", List.of(1, 25)), X_10_20)).isFalse();
    assertThat(might(Predicate.in("x", List.of(1, 15)), X_10_20)).isTrue();
    assertThat(might(Predicate.in("x", List.of()), X_10_20)).isFalse();
    ColumnStats allSeven = ColumnStats.of(10L, Map.of("x", 7L), Map.of("x", 7L), Map.of("x", 0L));
    assertThat(might(Predicate.not(Predicate.in("x", List.of(7, 8))), allSeven)).isFalse();
    assertThat(might(Predicate.not(Predicate.in("x", List.of(8))), allSeven)).isTrue();
    assertThat(might(Predicate.not(Predicate.in("x", List.of(7))), X_10_20)).isTrue();
  }

  @Test
  void combinesConservatively() {
    Predicate outside = Predicate.gt("x", 20);
    Predicate inside = Predicate.eq("x", 15);
    assertThat(might(Predicate.and(inside, outside), X_10_20)).isFalse();
    assertThat(might(Predicate.or(inside, outside), X_10_20)).isTrue();
    assertThat(might(Predicate.or(outside, Predicate.lt("x", 10)), X_10_20)).isFalse();
    // NOT (x >= 10 AND x <= 20) is x < 10 OR x > 20: no row of the file, only nulls.
    assertThat(might(Predicate.not(Predicate.and(Predicate.ge("x", 10), Predicate.le("x", 20))), X_10_20)).isFalse();
    // NOT (x = 15) cannot be ruled out from bounds: 10 and 20 satisfy it.
    assertThat(might(Predicate.not(inside), X_10_20)).isTrue();
    assertThat(might(Predicate.and(inside, Predicate.isNotNull("name")), X_10_20)).isTrue();
  }

  @Test
  void widensTimestampMaxByOneMillisecond() {
    Instant max = Instant.parse("2021-09-08T11:11:11.123Z");
    ColumnStats ts = ColumnStats.of(10L, Map.of("ts", max.minusSeconds(60)), Map.of("ts", max), Map.of("ts", 0L));
    // The real max may be up to .123999: stats hold milliseconds only.
    assertThat(might(Predicate.eq("ts", max.plusNanos(999_000)), ts)).isTrue();
    assertThat(might(Predicate.gt("ts", max.plusNanos(500_000)), ts)).isTrue();
    assertThat(might(Predicate.ge("ts", max.plusMillis(1)), ts)).isTrue();
    assertThat(might(Predicate.gt("ts", max.plusMillis(1)), ts)).isFalse();
    assertThat(might(Predicate.gt("ts", "2021-09-08 11:11:12"), ts)).isFalse();
    assertThat(might(Predicate.lt("ts", max.minusSeconds(60)), ts)).isFalse();
  }

  @Test
  void comparesStringsWithBounds() {
    ColumnStats names = ColumnStats.of(10L, Map.of("name", "bob"), Map.of("name", "dave"), Map.of("name", 0L));
    assertThat(might(Predicate.eq("name", "alice"), names)).isFalse();
    assertThat(might(Predicate.eq("name", "carol"), names)).isTrue();
    assertThat(might(Predicate.eq("name", "davey"), names)).isFalse();
    assertThat(might(Predicate.lt("name", "bob"), names)).isFalse();
    assertThat(might(Predicate.le("name", "bob"), names)).isTrue();
    assertThat(might(Predicate.eq("name", "Carol"), names)).isFalse();
  }

  @Test
  void neverPrunesOnNaN() {
    ColumnStats ds = ColumnStats.of(10L, Map.of("d", 1.0), Map.of("d", 2.0), Map.of("d", 0L));
    assertThat(might(Predicate.eq("d", Double.NaN), ds)).isTrue();
    assertThat(might(Predicate.eq("d", 3.0), ds)).isFalse();
    ColumnStats nanMax = ColumnStats.of(10L, Map.of("d", 1.0), Map.of("d", Double.NaN), Map.of("d", 0L));
    assertThat(might(Predicate.gt("d", 3.0), nanMax)).isTrue();
  }

  @Test
  void boundsOfTheWrongTypeMightMatch() {
    ColumnStats bad = ColumnStats.of(10L, Map.of("x", "10"), Map.of("x", "20"), Map.of("x", 0L));
    assertThat(might(Predicate.eq("x", 99), bad)).isTrue();
  }

  @Test
  void evaluatesPartitionColumnsExactly() {
    assertThat(might(Predicate.eq("day", "2021-09-08"), ColumnStats.NONE)).isTrue();
    assertThat(might(Predicate.eq("day", "2021-09-09"), ColumnStats.NONE)).isFalse();
    assertThat(might(Predicate.gt("day", LocalDate.of(2021, 9, 1)), ColumnStats.NONE)).isTrue();
    assertThat(might(Predicate.in("region", List.of("us", "ap")), ColumnStats.NONE)).isFalse();
    assertThat(might(Predicate.not(Predicate.in("region", List.of("us", "ap"))), ColumnStats.NONE)).isTrue();
    assertThat(might(Predicate.isNull("region"), ColumnStats.NONE)).isFalse();
    assertThat(might(Predicate.and(Predicate.eq("region", "eu"), Predicate.gt("x", 20)), X_10_20)).isFalse();
    assertThat(might(Predicate.or(Predicate.eq("region", "eu"), Predicate.gt("x", 20)), X_10_20)).isTrue();
    assertThat(might(Predicate.compareColumns("region", CompareOp.EQ, "region"), ColumnStats.NONE)).isTrue();
    assertThat(might(Predicate.compareColumns("region", CompareOp.NE, "region"), ColumnStats.NONE)).isFalse();
    assertThat(might(Predicate.compareColumns("name", CompareOp.EQ, "region"), X_10_20)).isTrue();
  }

  @Test
  void nullPartitionsAreUnknownForComparisons() {
    Map<String, String> nullRegion = new HashMap<>();
    nullRegion.put("day", "2021-09-08");
    nullRegion.put("region", null);
    assertThat(might(Predicate.eq("region", "eu"), nullRegion, ColumnStats.NONE)).isFalse();
    assertThat(might(Predicate.ne("region", "eu"), nullRegion, ColumnStats.NONE)).isFalse();
    assertThat(might(Predicate.not(Predicate.eq("region", "eu")), nullRegion, ColumnStats.NONE)).isFalse();
    assertThat(might(Predicate.isNull("region"), nullRegion, ColumnStats.NONE)).isTrue();
    assertThat(might(Predicate.isNull("region"), Map.of("day", "2021-09-08", "region", ""), ColumnStats.NONE)).isTrue();
    assertThat(might(Predicate.isNull("region"), Map.of("day", "2021-09-08"), ColumnStats.NONE)).isTrue();
  }

  @Test
  void corruptPartitionValueNamesTheColumn() {
    assertThatThrownBy(() -> might(Predicate.eq("day", "2021-09-08"), Map.of("day", "Sept 8"), ColumnStats.NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Partition value 'Sept 8' of column 'day' is not a valid date");
  }

  @Test
  void refusesPartitionColumnsOutsideTheSchema() {
    assertThatThrownBy(() -> FilePruner.of(Predicate.alwaysTrue().bind(SCHEMA), List.of("country")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Partition column 'country' is not in the schema [x, name, ts, d, day, region] the predicate "
            + "was bound to; bind the predicate to the table's schema");
  }
}
