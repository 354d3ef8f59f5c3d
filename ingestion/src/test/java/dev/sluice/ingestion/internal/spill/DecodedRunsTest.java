package dev.sluice.ingestion.internal.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.Batch;
import dev.sluice.table.data.DecodedRows;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows a table reader decoded column by column go into a batch's columns without a row made, and read back as the
 * rows they are; a run the columns can't hold, rows held before it, and a budget outgrown keep every row in order.
 */
class DecodedRunsTest {
  private static final StructType SCHEMA = StructType.of(
      StructField.of("id", PrimitiveType.LONG), StructField.of("name", PrimitiveType.STRING),
      StructField.of("amount", new DecimalType(10, 2)), StructField.of("at", PrimitiveType.TIMESTAMP),
      StructField.of("n", PrimitiveType.INTEGER), StructField.of("day", PrimitiveType.DATE),
      StructField.of("x", PrimitiveType.DOUBLE), StructField.of("raw", PrimitiveType.BINARY),
      StructField.of("source", PrimitiveType.STRING), StructField.of("missing", PrimitiveType.STRING));
  private static final long BUDGET = 1L << 20;
  private static final int RUN = 1_000;

  @TempDir Path spillDir;

  @BeforeEach
  void spillHere() {
    System.setProperty("sluice.spill.dir", spillDir.toString());
  }

  @AfterEach
  void restore() {
    System.clearProperty("sluice.spill.dir");
  }

  private static Row row(int i) {
    return Row.of(i % 9 == 0 ? null : (long) i * -1_000_003L, i % 11 == 0 ? null : "é-" + "x".repeat(i % 40),
        i % 13 == 0 ? null : new BigDecimal(i * 37L - 50_000).movePointLeft(2),
        Instant.ofEpochSecond(1_700_000_000L + i / 10, (i % 7) * 1_000), i, LocalDate.ofEpochDay(i % 40_000 - 20_000),
        i * -0.25, i % 19 == 0 ? null : new byte[] {(byte) i, 0, -1}, "file:/landing/part-" + (i % 3 == 0 ? i / 100 : i % 5) + ".json", null);
  }

  /**
   * Rows {@code from..from + n)} of {@code rows} as a reader decodes them (see {@link DecodedRows}); the source
   * column's values are stored once each and shared by the rows that hold them, as a dictionary's entries are.
   */
  private static DecodedRows decode(IntFunction<Row> rows, int from, int n) {
    int width = SCHEMA.size();
    long[][] longs = new long[width][];
    byte[][] bytes = new byte[width][];
    int[][] starts = new int[width][];
    int[][] lengths = new int[width][];
    long[][] nulls = new long[width][];
    for (int c = 0; c < width - 1; c++) { // the last column: missing from the file, no arrays at all
      boolean isBytes = c == 1 || c == 7 || c == 8;
      java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
      java.util.Map<String, Integer> stored = new java.util.HashMap<>();
      if (isBytes) {
        starts[c] = new int[n];
        lengths[c] = new int[n];
      } else {
        longs[c] = new long[n];
      }
      for (int i = 0; i < n; i++) {
        Object v = rows.apply(from + i).get(c);
        if (v == null) {
          nulls[c] = nulls[c] == null ? new long[(n + 63) / 64] : nulls[c];
          nulls[c][i >>> 6] |= 1L << i;
        } else if (isBytes) {
          byte[] b = v instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : (byte[]) v;
          Integer shared = c == 8 ? stored.get((String) v) : null;
          if (shared == null) {
            shared = data.size();
            data.writeBytes(b);
            if (c == 8) {
              stored.put((String) v, shared);
            }
          }
          starts[c][i] = shared;
          lengths[c][i] = b.length;
        } else {
          longs[c][i] = switch (c) {
            case 2 -> ((BigDecimal) v).unscaledValue().longValueExact();
            case 3 -> ((Instant) v).getEpochSecond() * 1_000_000L + ((Instant) v).getNano() / 1_000;
            case 4 -> (Integer) v;
            case 5 -> ((LocalDate) v).toEpochDay();
            case 6 -> Double.doubleToRawLongBits((Double) v);
            default -> (Long) v;
          };
        }
      }
      if (isBytes) {
        bytes[c] = data.toByteArray();
      }
    }
    return new DecodedRows(SCHEMA, n, longs, bytes, starts, lengths, nulls);
  }

  private static void assertRows(Batch batch, IntFunction<Row> expected, int n) {
    int i = 0;
    for (Row r : batch.rows()) {
      Row e = expected.apply(i);
      int at = i;
      assertThat(Row.equalValues(r, e)).as(() -> "row " + at + ": " + Arrays.deepToString(r.toArray()) + " vs "
          + Arrays.deepToString(e.toArray())).isTrue();
      i++;
    }
    assertThat(i).isEqualTo(n);
  }

  @Test
  void runsGoIntoColumnsAndReadBackAsTheirRows() {
    Batch.Builder builder = Batch.builder(SCHEMA, BUDGET);
    for (int from = 0; from < 3_000; from += RUN) {
      builder.addColumns(decode(DecodedRunsTest::row, from, RUN));
    }
    Batch batch = builder.build();

    assertThat(batch.rows()).isInstanceOf(ColumnarRows.class);
    assertRows(batch, DecodedRunsTest::row, 3_000);
    assertThat(decode(DecodedRunsTest::row, 0, 50).row(13)).isEqualTo(row(13));
  }

  @Test
  void aRunWithAValueTheColumnsCannotHoldGoesInAsRows() {
    // Year 3000 fits a run's microseconds but not the columns' nanoseconds.
    IntFunction<Row> rows = i -> {
      Row r = row(i);
      if (i != 1_500) {
        return r;
      }
      Object[] v = r.toArray();
      v[3] = Instant.parse("3000-01-01T00:00:00.000001Z");
      return Row.of(v);
    };
    Batch.Builder builder = Batch.builder(SCHEMA, BUDGET);
    for (int from = 0; from < 3_000; from += RUN) {
      builder.addColumns(decode(rows, from, RUN));
    }

    assertRows(builder.build(), rows, 3_000);
  }

  @Test
  void rowsAddedBeforeARunStayFirst() {
    Batch.Builder builder = Batch.builder(SCHEMA, BUDGET);
    for (int i = 0; i < 10; i++) {
      builder.add(row(i));
    }
    builder.addColumns(decode(DecodedRunsTest::row, 10, RUN));

    assertRows(builder.build(), DecodedRunsTest::row, 10 + RUN);
  }

  @Test
  void aRunOfOtherColumnTypesIsRefusedByColumnNotMisread() {
    StructType other = StructType.of(StructField.of("n", PrimitiveType.LONG));
    Batch.Builder builder = Batch.builder(StructType.of(StructField.of("day", PrimitiveType.DATE)), BUDGET);

    // Not stored as the date of epoch day 7: its row goes in as a row would, and is refused as one.
    assertThatThrownBy(() -> {
      builder.addColumns(new DecodedRows(other, 1, new long[][] {{7}}, new byte[1][], new int[1][], new int[1][],
          new long[1][]));
      builder.build();
    }).hasMessageContaining("'day' has type date but holds a java.lang.Long");
  }

  @Test
  void runsOutgrowingTheBudgetSpillWithEveryRowInOrder() {
    Batch.Builder builder = Batch.builder(SCHEMA, BUDGET);
    List<DecodedRows> runs = new ArrayList<>();
    for (int from = 0; from < 40_000; from += RUN) {
      runs.add(decode(DecodedRunsTest::row, from, RUN));
    }
    runs.forEach(builder::addColumns);
    Batch batch = builder.build();

    assertThat(batch.spilled()).isTrue();
    assertRows(batch, DecodedRunsTest::row, 40_000);
  }

  /** One string column of {@code n} rows, value {@code i} of {@code i % 700} chars: runs of hundreds of KB. */
  private static DecodedRows strings(int n, IntFunction<String> value) {
    StructType one = StructType.of(StructField.of("s", PrimitiveType.STRING));
    java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
    int[] starts = new int[n];
    int[] lengths = new int[n];
    for (int i = 0; i < n; i++) {
      byte[] b = value.apply(i).getBytes(StandardCharsets.UTF_8);
      starts[i] = data.size();
      lengths[i] = b.length;
      data.writeBytes(b);
    }
    return new DecodedRows(one, n, new long[1][], new byte[][] {data.toByteArray()}, new int[][] {starts},
        new int[][] {lengths}, new long[1][]);
  }

  private static String longValue(int i) {
    return i + ":" + "abcdefghij".repeat(i % 70);
  }

  @Test
  void aRunOfMoreBytesThanAChunkReadsBackWholeAcrossItsChunks() {
    DecodedRows run = strings(3_000, DecodedRunsTest::longValue);
    assertThat(run.bytes(0).length).isGreaterThan(3 * ChunkPool.BYTES);
    Batch.Builder builder = Batch.builder(run.schema(), 16L << 20);
    builder.addColumns(run);
    builder.add(Row.of("between")); // stored in a chunk of the column's own, not into the run's array
    builder.addColumns(strings(10, i -> "tail " + i));
    Batch batch = builder.build();

    assertThat(batch.rows()).isInstanceOf(ColumnarRows.class);
    assertRows(batch, i -> Row.of(i < 3_000 ? longValue(i) : i == 3_000 ? "between" : "tail " + (i - 3_001)), 3_011);
  }

  @Test
  void aThinnedRunReadsBackAsItsOwnRows() {
    DecodedRows run = decode(DecodedRunsTest::row, 0, RUN);
    int[] picked = {3, 14, 15, 92, 653, 999};
    Batch.Builder builder = Batch.builder(SCHEMA, BUDGET);
    builder.addColumns(run.select(picked, picked.length));

    assertRows(builder.build(), i -> row(picked[i]), picked.length);
  }

  @Test
  void aRunsOwnArrayNeverGoesToThePoolWhenTheBatchEnds() {
    // A chunk's length exactly: the pool would take it for one of its own, and hand it out to be written into.
    DecodedRows run = strings(ChunkPool.BYTES / 64, i -> "%064d".formatted(i));
    byte[] array = run.bytes(0);
    assertThat(array).hasSize(ChunkPool.BYTES);
    try (BatchScope scope = BatchScope.open()) {
      Batch.Builder builder = Batch.builder(run.schema(), 16L << 20);
      builder.addColumns(run);
      builder.add(Row.of("x".repeat(100))); // a chunk of the column's own, which does go back
      assertThat(builder.build().rows()).hasSize(ChunkPool.BYTES / 64 + 1);
    }

    for (int i = 0; i < 64; i++) {
      assertThat(ChunkPool.bytes()).isNotSameAs(array);
    }
    assertThat(run.row(4095).get(0)).isEqualTo("%064d".formatted(4095));
  }

  @Test
  void runsOfAnySizeAndStartKeepEachRowsNullsInPlace() {
    // Runs starting on a 64-row word (0, 640, 1280) and off it (1281 on), with and without nulls in a column.
    int[] sizes = {640, 640, 1, 1_000, 63, 64, 65, 640};
    Batch.Builder builder = Batch.builder(SCHEMA, 16L << 20);
    int from = 0;
    for (int size : sizes) {
      builder.addColumns(decode(DecodedRunsTest::row, from, size));
      from += size;
    }
    Batch batch = builder.build();

    assertThat(batch.rows()).isInstanceOf(ColumnarRows.class);
    assertRows(batch, DecodedRunsTest::row, from);
  }
}
