package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatchSpillTest {
  private static final StructType SCHEMA = StructType.of(
      StructField.of("id", PrimitiveType.LONG), StructField.of("name", PrimitiveType.STRING),
      StructField.of("amount", new DecimalType(10, 2)), StructField.of("at", PrimitiveType.TIMESTAMP),
      StructField.of("tags", new ArrayType(PrimitiveType.STRING, true)),
      StructField.of("attrs", new MapType(PrimitiveType.STRING, PrimitiveType.INTEGER, true)),
      StructField.of("nested", StructType.of(StructField.of("x", PrimitiveType.DOUBLE))),
      StructField.of("raw", PrimitiveType.BINARY));

  @TempDir Path spillDir;

  @BeforeEach
  void smallBudget() {
    System.setProperty("sluice.batch.memoryBytes", Long.toString(64 * 1024));
    System.setProperty("sluice.spill.dir", spillDir.toString());
  }

  @AfterEach
  void restore() {
    System.clearProperty("sluice.batch.memoryBytes");
    System.clearProperty("sluice.spill.dir");
  }

  private static Row row(int i) {
    return Row.of((long) i, i % 7 == 0 ? null : "name-" + i, new BigDecimal(i).movePointLeft(2),
        Instant.ofEpochSecond(1_700_000_000L + i, 123_000), List.of("a" + i, "b"), Map.of("k", i),
        Row.of(i * 0.5), new byte[] {(byte) i, 1, 2});
  }

  /** Rows {@code row(0..n)} through the (spilling) builder. */
  private static Batch batchOf(int n) {
    Batch.Builder builder = Batch.builder(SCHEMA);
    for (int i = 0; i < n; i++) {
      builder.add(row(i));
    }
    return builder.build();
  }

  @Test
  void aValueThatDoesNotFitItsSpilledColumnFailsTheBatchNamingTheColumn() {
    Batch.Builder builder = Batch.builder(SCHEMA);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> {
      for (int i = 0; i < 20_000; i++) {
        Row r = row(i);
        builder.add(i == 3_000 ? Row.of(r.get(0), 42L, r.get(2), r.get(3), r.get(4), r.get(5), r.get(6), r.get(7)) : r);
      }
      builder.build();
    }).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("column 'name'")
        .hasMessageContaining("java.lang.Long");
  }

  @Test
  void partsMeasuredByTheirMakerSpillOnceOverTheBudgetAndKeepTheirOrder() {
    Batch.Builder builder = Batch.builder(SCHEMA);
    List<Row> expected = new ArrayList<>();
    for (int part = 0; part < 20; part++) {
      List<Row> rows = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        rows.add(row(part * 100 + i));
      }
      expected.addAll(rows);
      builder.addAll(rows, Batch.heapEstimate(rows));
      if (part == 0) {
        assertThat(Batch.heapEstimate(rows)).isBetween(100L * 200, 100L * 2000);
      }
    }
    Batch batch = builder.build();
    assertThat(batch.spilled()).isTrue(); // 2,000 rows of ~700 bytes are over the 64 KB budget
    assertThat(batch.size()).isEqualTo(2_000);
    int i = 0;
    for (Row r : batch.rows()) {
      assertThat(r).isEqualTo(expected.get(i++));
    }
  }

  @Test
  void repeatedValuesAcrossRowsBlocksAndNullsReadBackEqualFromAnyStart() {
    int n = 5_000;
    Instant at = Instant.parse("2026-12-01T10:15:30.123456Z");
    List<Row> expected = new ArrayList<>();
    Batch.Builder builder = Batch.builder(SCHEMA);
    for (int i = 0; i < n; i++) {
      // runs of 700 cross the blocks' boundaries; a null in the middle of a run must not be taken for a repeat
      Row r = Row.of((long) (i / 3), i % 9 == 4 ? null : "file-" + (i / 700), new BigDecimal("12.50"),
          at, List.of("x"), Map.of("k", 1), Row.of(1.0), new byte[] {7});
      expected.add(r);
      builder.add(r);
    }
    Batch batch = builder.build();
    assertThat(batch.spilled()).isTrue();
    int i = 0;
    for (Row r : batch.rows()) {
      assertThat(Row.equalValues(r, expected.get(i))).as("row %d", i).isTrue();
      i++;
    }
    assertThat(i).isEqualTo(n);
    for (int at2 : new int[] {4_999, 1_024, 1_023, 2_048, 0, 3_500}) {
      assertThat(Row.equalValues(batch.rows().get(at2), expected.get(at2))).as("get(%d)", at2).isTrue();
    }
  }

  @Test
  void aProjectedPassOverASpilledBatchOrAViewOfItReadsItsColumnsAsTheWholeRowsHoldThem() {
    int n = 5_000;
    List<Row> expected = new ArrayList<>();
    Batch.Builder builder = Batch.builder(SCHEMA);
    for (int i = 0; i < n; i++) {
      // runs of repeated values cross skipped columns, nulls and blocks
      Row r = Row.of((long) (i / 3), i % 9 == 4 ? null : "file-" + (i / 700), new BigDecimal(i % 5).movePointLeft(2),
          Instant.ofEpochSecond(1_700_000_000L + i / 10), List.of("x" + i), Map.of("k", i), Row.of(i * 1.0),
          new byte[] {(byte) i});
      expected.add(r);
      builder.add(r);
    }
    Batch batch = builder.build();
    assertThat(batch.spilled()).isTrue();
    java.util.BitSet odd = new java.util.BitSet(n);
    for (int i = 1; i < n; i += 2) {
      odd.set(i);
    }
    for (int[] columns : new int[][] {{0}, {1, 3}, {2, 7}, {3}, {4, 6}}) {
      int i = 0;
      for (Row r : batch.project(columns)) {
        for (int c : columns) {
          assertThat(r.get(c)).as("row %d column %d", i, c).usingRecursiveComparison()
              .isEqualTo(expected.get(i).get(c));
        }
        i++;
      }
      assertThat(i).isEqualTo(n);
      int k = 1;
      for (Row r : batch.keep(odd).project(columns)) {
        for (int c : columns) {
          assertThat(r.get(c)).as("kept row %d column %d", k, c).usingRecursiveComparison()
              .isEqualTo(expected.get(k).get(c));
        }
        k += 2;
      }
      assertThat(k).isEqualTo(n + 1);
    }
    Row first = batch.project(1).iterator().next();
    assertThat(first.get(0)).as("a column not asked for is not decoded").isNull();
  }

  @Test
  void keepingRowsOfASpilledBatchIsAViewInOrderAndAViewOfAViewKeepsTheIntersection() throws Exception {
    int n = 10_000;
    Batch batch = batchOf(n);
    java.util.BitSet even = new java.util.BitSet(n);
    for (int i = 0; i < n; i += 2) {
      even.set(i);
    }
    Batch evens = batch.keep(even);
    try (Stream<Path> files = Files.list(spillDir)) {
      assertThat(files.count()).as("no second spill file: the view reads the first").isEqualTo(1);
    }
    assertThat(evens.size()).isEqualTo(n / 2);
    assertThat(evens.spilled()).isTrue();
    java.util.BitSet everyThird = new java.util.BitSet(n / 2);
    for (int i = 0; i < n / 2; i += 3) {
      everyThird.set(i);
    }
    Batch sixes = evens.keep(everyThird);
    List<Long> ids = new ArrayList<>();
    for (Row r : sixes.rows()) {
      ids.add((Long) r.get(0));
    }
    assertThat(ids).hasSize((n / 2 + 2) / 3).startsWith(0L, 6L, 12L).endsWith(9_996L);
    assertThat(Row.equalValues(sixes.rows().get(100), row(600))).as("get(i) of a view").isTrue();
    java.util.BitSet all = new java.util.BitSet();
    all.set(0, n);
    assertThat(batch.keep(all).rows()).as("keeping every row is the batch itself").isSameAs(batch.rows());
    assertThat(batch.keep(new java.util.BitSet()).size()).isZero();
  }

  @Test
  void aProjectedPassSkipsColumnsLargerThanTheReadBufferAndAWholePassStillReadsThem() {
    StructType schema = StructType.of(StructField.of("id", PrimitiveType.LONG),
        StructField.of("text", PrimitiveType.STRING), StructField.of("at", PrimitiveType.TIMESTAMP));
    int n = 3_000;
    Batch.Builder builder = Batch.builder(schema);
    for (int i = 0; i < n; i++) {
      builder.add(Row.of((long) i, ("text-" + i + "-").repeat(40), i % 3 == 0 ? null : Instant.ofEpochSecond(i)));
    }
    Batch batch = builder.build();
    assertThat(batch.spilled()).isTrue();
    long sum = 0;
    int timestamps = 0;
    for (Row r : batch.project(0, 2)) {
      assertThat(r.get(1)).isNull();
      sum += (Long) r.get(0);
      timestamps += r.get(2) == null ? 0 : 1;
    }
    assertThat(sum).isEqualTo((long) n * (n - 1) / 2);
    assertThat(timestamps).isEqualTo(n - n / 3);
    Row last = null;
    for (Row r : batch.rows()) {
      last = r;
    }
    assertThat(last.get(1)).isEqualTo(("text-" + (n - 1) + "-").repeat(40));
    assertThat(batch.rows().get(1500).get(1)).isEqualTo("text-1500-".repeat(40));
  }

  @Test
  void sublistsOfAViewOfASpilledBatchReadInParallelEachGiveTheirRowsInOrder() throws Exception {
    int n = 20_000;
    Batch batch = batchOf(n);
    java.util.BitSet notFifth = new java.util.BitSet(n);
    for (int i = 0; i < n; i++) {
      if (i % 5 != 0) {
        notFifth.set(i);
      }
    }
    List<Row> kept = batch.keep(notFifth).rows();
    int half = kept.size() / 2;
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      java.util.concurrent.Future<List<Long>> first = pool.submit(() -> ids(kept.subList(0, half).iterator()));
      java.util.concurrent.Future<List<Long>> second = pool.submit(() -> ids(kept.subList(half, kept.size())
          .iterator()));
      List<Long> all = new ArrayList<>(first.get());
      all.addAll(second.get());
      List<Long> expected = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (i % 5 != 0) {
          expected.add((long) i);
        }
      }
      assertThat(all).isEqualTo(expected);
    } finally {
      pool.shutdown();
    }
    assertThat(ids(kept.subList(kept.size(), kept.size()).iterator())).isEmpty();
    assertThat(kept.listIterator(3).next().get(0)).isEqualTo(4L);
  }

  private static List<Long> ids(Iterator<Row> rows) {
    List<Long> out = new ArrayList<>();
    while (rows.hasNext()) {
      out.add((Long) rows.next().get(0));
    }
    return out;
  }

  @Test
  void aBatchLargerThanItsBudgetSpillsAndIteratesIdenticallyEveryTime() throws Exception {
    int n = 20_000;
    Batch.Builder builder = Batch.builder(SCHEMA);
    for (int i = 0; i < n; i++) {
      builder.add(row(i));
    }
    Batch batch = builder.build();

    assertThat(batch.spilled()).isTrue();
    assertThat(batch.size()).isEqualTo(n);
    try (Stream<Path> files = Files.list(spillDir.resolve("."))) {
      assertThat(files.count()).as("the spill file").isEqualTo(1);
    }
    for (int pass = 0; pass < 2; pass++) {
      int i = 0;
      for (Iterator<Row> it = batch.iterator(); it.hasNext(); i++) {
        assertThat(Row.equalValues(it.next(), row(i))).as("row %d, pass %d", i, pass).isTrue();
      }
      assertThat(i).isEqualTo(n);
    }
    assertThat(Row.equalValues(batch.rows().get(12_345), row(12_345))).isTrue();
    assertThat(Row.equalValues(batch.rows().get(3), row(3))).as("a seek backwards").isTrue();
    List<Row> tail = new ArrayList<>();
    batch.rows().subList(n - 1500, n - 1000).forEach(tail::add);
    assertThat(tail).hasSize(500);
    assertThat(Row.equalValues(tail.get(0), row(n - 1500))).isTrue();
    assertThat(Row.equalValues(tail.get(499), row(n - 1001))).isTrue();
  }

  @Test
  void aBatchWithinItsBudgetStaysInTheHeap() {
    Batch batch = Batch.of(SCHEMA, List.of(row(1), row(2)));

    assertThat(batch.spilled()).isFalse();
    assertThat(batch.rows()).hasSize(2);
    assertThat(batch).isEqualTo(new Batch(SCHEMA, batch.rows()));
  }

  @Test
  void theListConstructorStillTakesAnyList() {
    List<Row> rows = new ArrayList<>(List.of(row(1)));
    Batch batch = new Batch(SCHEMA, rows);
    rows.clear();

    assertThat(batch.size()).as("copied, as before").isEqualTo(1);
  }
}
