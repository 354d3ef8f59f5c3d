package dev.sluice.ingestion.internal.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.Batch;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch whose boxed rows outgrow the budget but whose columns fit it is held in columns: every pass, projection,
 * view and random read gives the rows as they were added; a value the columns can't hold, or columns outgrowing the
 * budget, spill instead; and the rows built in a {@link BatchScope} end with it.
 */
class ColumnarRowsTest {
  private static final StructType SCHEMA = StructType.of(
      StructField.of("id", PrimitiveType.LONG), StructField.of("name", PrimitiveType.STRING),
      StructField.of("amount", new DecimalType(10, 2)), StructField.of("at", PrimitiveType.TIMESTAMP),
      StructField.of("n", PrimitiveType.INTEGER), StructField.of("s", PrimitiveType.SHORT),
      StructField.of("b", PrimitiveType.BYTE), StructField.of("flag", PrimitiveType.BOOLEAN),
      StructField.of("day", PrimitiveType.DATE), StructField.of("x", PrimitiveType.DOUBLE),
      StructField.of("f", PrimitiveType.FLOAT), StructField.of("raw", PrimitiveType.BINARY),
      StructField.of("source", PrimitiveType.STRING));
  /** Boxed, 5,000 rows take ~2 MB; in columns ~0.4 MB. */
  private static final long BUDGET = 1L << 20;

  @TempDir Path spillDir;

  @BeforeEach
  void spillHere() {
    System.setProperty("sluice.spill.dir", spillDir.toString());
  }

  @AfterEach
  void restore() {
    System.clearProperty("sluice.spill.dir");
  }

  /** Every type, nulls, negative and extreme values, values repeated from the row before, strings of any length. */
  private static Row row(int i) {
    String name = i % 11 == 0 ? null : i % 5 == 0 ? "é-" + "x".repeat(i % 300) : "name-" + i;
    return Row.of((long) i * (i % 2 == 0 ? 1 : -1_000_000_007L), name,
        i % 13 == 0 ? null : new BigDecimal(i * 37L - 50_000).movePointLeft(2),
        Instant.ofEpochSecond(i % 3 == 0 ? -86_400L * 365 * 200 + i : 1_700_000_000L + i / 10, (i % 7) * 1_001),
        i, (short) (i % 30_000), (byte) i, i % 2 == 0, LocalDate.ofEpochDay(i % 40_000 - 20_000),
        i % 17 == 0 ? Double.NaN : i * -0.25, (float) i / 3, i % 19 == 0 ? null : new byte[] {(byte) i, 0, -1},
        "file:/landing/part-" + i / 1000 + ".json");
  }

  private static Batch batchOf(int n) {
    Batch.Builder builder = Batch.builder(SCHEMA, BUDGET);
    for (int i = 0; i < n; i++) {
      builder.add(row(i));
    }
    return builder.build();
  }

  private static void assertRowEquals(Row actual, int i) {
    Row expected = row(i);
    for (int c = 0; c < SCHEMA.size(); c++) {
      Object e = expected.get(c);
      Object a = actual.get(c);
      if (e instanceof byte[] bytes) {
        assertThat((byte[]) a).as("row %d column %d", i, c).isEqualTo(bytes);
      } else {
        assertThat(a).as("row %d column %d", i, c).isEqualTo(e);
      }
    }
  }

  @Test
  void aBatchOverItsBudgetAsBoxedRowsButNotInColumnsIsHeldInColumnsAndReadsBackAsAdded() {
    Batch batch = batchOf(5_000);
    assertThat(batch.rows()).isInstanceOf(ColumnarRows.class);
    assertThat(batch.spilled()).isFalse();
    assertThat(batch.size()).isEqualTo(5_000);
    for (int pass = 0; pass < 2; pass++) {
      int i = 0;
      for (Row r : batch.rows()) {
        assertRowEquals(r, i++);
      }
      assertThat(i).isEqualTo(5_000);
    }
    for (int i : new int[] {4_999, 0, 2_048, 1_023, 1_024, 3_333}) {
      assertRowEquals(batch.rows().get(i), i);
    }
    Iterator<Row> from = batch.rows().subList(1_500, 5_000).iterator();
    for (int i = 1_500; i < 5_000; i++) {
      assertRowEquals(from.next(), i);
    }
    assertThat(from.hasNext()).isFalse();
  }

  @Test
  void aProjectedPassAndAViewOfKeptRowsReadTheirColumnsAsTheRowsHoldThem() {
    Batch batch = batchOf(5_000);
    int i = 0;
    for (Row r : batch.project(1, 3)) {
      assertThat(r.get(1)).isEqualTo(row(i).get(1));
      assertThat(r.get(3)).isEqualTo(row(i).get(3));
      i++;
    }
    assertThat(i).isEqualTo(5_000);
    BitSet kept = new BitSet();
    for (int k = 0; k < 5_000; k += 3) {
      kept.set(k);
    }
    Batch view = batch.keep(kept);
    List<Row> rows = new ArrayList<>();
    view.iterator().forEachRemaining(rows::add);
    assertThat(rows).hasSize(1_667);
    for (int k = 0; k < rows.size(); k++) {
      assertRowEquals(rows.get(k), k * 3);
      assertRowEquals(view.rows().get(k), k * 3);
    }
  }

  @Test
  void decimalsOfEighteenDigitsKeepTheirValueAndScale() {
    StructType schema = StructType.of(StructField.of("d", new DecimalType(18, 3)));
    List<BigDecimal> values = List.of(new BigDecimal("999999999999999.999"), new BigDecimal("-999999999999999.999"),
        new BigDecimal("0.000"), new BigDecimal("-0.001"), new BigDecimal("123.400"));
    Batch.Builder builder = Batch.builder(schema, BUDGET);
    for (int i = 0; i < 20_000; i++) {
      builder.add(Row.of(values.get(i % values.size())));
    }
    Batch batch = builder.build();
    assertThat(batch.spilled()).isFalse();
    int i = 0;
    for (Row r : batch.rows()) {
      // A row of a pass is a view of its block, equal to (and hashed as) any row of the same values.
      Row same = Row.of(values.get(i++ % values.size()));
      assertThat(r).isEqualTo(same).hasSameHashCodeAs(same);
      assertThat(same).isEqualTo(r);
    }
    assertThat(batch.rows().get(19_999).get(0)).isEqualTo(values.get(19_999 % values.size()));
  }

  @Test
  void aValueTheColumnsCannotHoldExactlySpillsTheWholeBatchInOrder() {
    Batch.Builder builder = Batch.builder(SCHEMA, BUDGET);
    for (int i = 0; i < 5_000; i++) {
      Row r = row(i);
      if (i == 4_000) {
        Object[] v = r.toArray();
        v[2] = new BigDecimal("1.5"); // scale 1 in a decimal(10,2) column: the columns keep unscaled longs of scale 2
        r = Row.of(v);
      }
      builder.add(r);
    }
    Batch batch = builder.build();
    assertThat(batch.spilled()).isTrue();
    int i = 0;
    for (Row r : batch.rows()) {
      if (i == 4_000) {
        assertThat(r.get(2)).isEqualTo(new BigDecimal("1.5"));
      } else {
        assertRowEquals(r, i);
      }
      i++;
    }
    assertThat(i).isEqualTo(5_000);
  }

  @Test
  void columnsOutgrowingTheBudgetSpillWithEveryRowInOrder() {
    Batch batch = batchOf(40_000);
    assertThat(batch.spilled()).isTrue();
    int i = 0;
    for (Row r : batch.rows()) {
      assertRowEquals(r, i++);
    }
    assertThat(i).isEqualTo(40_000);
  }

  @Test
  void rowsBuiltInAScopeEndWithItAndTheirArraysServeTheNextBatchUnchanged() {
    Batch first;
    try (BatchScope scope = BatchScope.open()) {
      first = batchOf(5_000);
      assertRowEquals(first.rows().get(10), 10);
    }
    assertThatThrownBy(() -> first.rows().get(10)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("after the batch ended");
    assertThatThrownBy(() -> first.iterator().next()).isInstanceOf(IllegalStateException.class);
    Batch outside = batchOf(5_000); // no scope open: left to the collector, never ended
    try (BatchScope scope = BatchScope.open()) {
      Batch second = batchOf(5_000);
      int i = 0;
      for (Row r : second.rows()) {
        assertRowEquals(r, i++);
      }
    }
    assertRowEquals(outside.rows().get(4_321), 4_321);
  }

  /** Row {@code i} with its timestamp null every ninth row. */
  private static Row withNullTimes(int i) {
    Object[] v = row(i).toArray();
    if (i % 9 == 0) {
      v[3] = null;
    }
    return Row.of(v);
  }

  /** The (position, microseconds) pairs a timestamp pass over {@code rows} should visit: nulls skipped, floor. */
  private static List<String> expectedTimes(List<Row> rows) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      if (rows.get(i).get(3) instanceof Instant t) {
        out.add(i + "@" + Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000));
      }
    }
    return out;
  }

  private static List<String> visitedTimes(Batch batch) {
    List<String> out = new ArrayList<>();
    batch.forEachTimestamp(3, (row, micros) -> out.add(row + "@" + micros));
    return out;
  }

  /** Rows 0..n-1 with null timestamps every ninth row. */
  private static List<Row> rowsWithNullTimes(int n) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(withNullTimes(i));
    }
    return rows;
  }

  private static Batch built(List<Row> rows) {
    Batch.Builder builder = Batch.builder(SCHEMA, BUDGET);
    builder.addAll(rows);
    return builder.build();
  }

  /** Every {@code step}-th position from {@code first}. */
  private static BitSet every(int step, int first, int size) {
    BitSet kept = new BitSet();
    for (int i = first; i < size; i += step) {
      kept.set(i);
    }
    return kept;
  }

  private static List<Row> keptOf(List<Row> rows, BitSet kept) {
    List<Row> out = new ArrayList<>();
    kept.stream().forEach(i -> out.add(rows.get(i)));
    return out;
  }

  @Test
  void aTimestampPassVisitsTheSameValuesHowEverTheRowsAreHeld() {
    List<Row> rows = rowsWithNullTimes(5_000);
    Batch columnar = built(rows);
    assertThat(columnar.rows()).isInstanceOf(ColumnarRows.class);
    assertThat(visitedTimes(columnar)).isEqualTo(expectedTimes(rows));

    BitSet kept = every(3, 0, rows.size());
    assertThat(visitedTimes(columnar.keep(kept))).isEqualTo(expectedTimes(keptOf(rows, kept)));

    List<Row> many = rowsWithNullTimes(40_000);
    Batch spilled = built(many);
    assertThat(spilled.spilled()).isTrue();
    assertThat(visitedTimes(spilled)).isEqualTo(expectedTimes(many));

    Object[] far = row(1).toArray();
    far[3] = Instant.MAX; // beyond a long of microseconds: saturates
    Batch listed = new Batch(SCHEMA, List.of(row(0), Row.of(far), withNullTimes(9)));
    assertThat(visitedTimes(listed)).containsExactly(expectedTimes(List.of(row(0))).get(0), "1@" + Long.MAX_VALUE);
    assertThatThrownBy(() -> listed.forEachTimestamp(0, (row, micros) -> { }))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a timestamp");
  }

  @Test
  void rowsWithANullInSomeColumnsAreFoundHowEverTheRowsAreHeld() {
    int[] columns = {1, 3}; // name (null every 11th row), at (null every 9th)
    List<Row> rows = rowsWithNullTimes(5_000);
    Batch columnar = built(rows);
    assertThat(columnar.rows()).isInstanceOf(ColumnarRows.class);
    assertThat(rowsWithNull(columnar, columns)).isEqualTo(expectedWithNull(rows, columns));

    BitSet kept = every(2, 1, rows.size());
    assertThat(rowsWithNull(columnar.keep(kept), columns)).isEqualTo(expectedWithNull(keptOf(rows, kept), columns));

    Batch listed = new Batch(SCHEMA, rows.subList(0, 100));
    assertThat(rowsWithNull(listed, columns)).isEqualTo(expectedWithNull(rows.subList(0, 100), columns))
        .contains(0, 9, 11, 18, 22, 27);
  }

  private static List<Integer> rowsWithNull(Batch batch, int[] columns) {
    List<Integer> out = new ArrayList<>();
    batch.forEachRowWithNullIn(columns, out::add);
    return out;
  }

  private static List<Integer> expectedWithNull(List<Row> rows, int[] columns) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      for (int c : columns) {
        if (rows.get(i).get(c) == null) {
          out.add(i);
          break;
        }
      }
    }
    return out;
  }
}
