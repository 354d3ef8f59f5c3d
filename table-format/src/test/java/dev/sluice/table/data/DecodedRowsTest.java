package dev.sluice.table.data;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class DecodedRowsTest {
  private static final StructType SCHEMA = StructType.of(StructField.of("s", PrimitiveType.STRING),
      StructField.of("b", PrimitiveType.BINARY), StructField.of("ts", PrimitiveType.TIMESTAMP),
      StructField.of("d", new DecimalType(10, 2)), StructField.of("day", PrimitiveType.DATE),
      StructField.of("x", PrimitiveType.DOUBLE), StructField.of("n", PrimitiveType.INTEGER),
      StructField.of("gone", PrimitiveType.LONG));

  /**
   * Four rows: "a", "a", null, "bé" (the strings' first two rows share one range, as a dictionary entry; the
   * binaries' have a range each); the second row's fixed values repeat the first's.
   */
  private static DecodedRows rows() {
    byte[] strings = "aabé".getBytes(StandardCharsets.UTF_8);
    int[] shared = {0, 0, 2, 2};
    int[] own = {0, 1, 2, 2};
    int[] lengths = {1, 1, 0, strings.length - 2};
    long[] nulls = {1L << 2};
    long[] micros = {-1_500_001L, -1_500_001L, 0, 1_700_000_000_000_123L};
    long[][] longs = {null, null, micros, {12345, 12345, 0, -7}, {19_000, 19_000, 0, -3},
        {Double.doubleToRawLongBits(2.5), Double.doubleToRawLongBits(2.5), 0, Double.doubleToRawLongBits(-0.0)},
        {7, 7, 0, -1}, null};
    byte[][] bytes = {strings, strings, null, null, null, null, null, null};
    int[][] starts = {shared, own, null, null, null, null, null, null};
    int[][] lens = {lengths, lengths, null, null, null, null, null, null};
    long[][] nullBits = {nulls, nulls, nulls, nulls, nulls, nulls, nulls, null};
    return new DecodedRows(SCHEMA, 4, longs, bytes, starts, lens, nullBits);
  }

  @Test
  void boxedValuesAreTheReadersValuesWithRepeatsSharedExceptMutableBinaries() {
    DecodedRows run = rows();
    Object[][] block = new Object[SCHEMA.size()][4];
    for (int c = 0; c < SCHEMA.size(); c++) {
      run.box(c, 0, 4, block[c], 0);
    }

    assertThat(block[0]).containsExactly("a", "a", null, "bé");
    assertThat(block[0][0]).isSameAs(block[0][1]);
    assertThat((byte[]) block[1][0]).isEqualTo(new byte[] {'a'});
    assertThat(block[1][0]).isNotSameAs(block[1][1]);
    assertThat(block[2]).containsExactly(Instant.parse("1969-12-31T23:59:58.499999Z"),
        Instant.parse("1969-12-31T23:59:58.499999Z"), null, Instant.parse("2023-11-14T22:13:20.000123Z"));
    assertThat(block[2][0]).isSameAs(block[2][1]);
    assertThat(block[3]).containsExactly(new BigDecimal("123.45"), new BigDecimal("123.45"), null,
        new BigDecimal("-0.07"));
    assertThat(block[4]).containsExactly(LocalDate.ofEpochDay(19_000), LocalDate.ofEpochDay(19_000), null,
        LocalDate.ofEpochDay(-3));
    assertThat(block[5]).containsExactly(2.5, 2.5, null, -0.0);
    assertThat(block[6]).containsExactly(7, 7, null, -1);
    assertThat(block[7]).containsOnlyNulls();
    for (int i = 0; i < 4; i++) {
      Object[] column = new Object[SCHEMA.size()];
      for (int c = 0; c < column.length; c++) {
        column[c] = block[c][i];
      }
      assertThat(run.row(i)).isEqualTo(Row.of(column)).isEqualTo(new BlockRow(block, i));
    }
    // A block from the middle: the first value is made, not taken from a row before the block.
    Object[] tail = new Object[2];
    run.box(0, 2, 2, tail, 0);
    assertThat(tail).containsExactly(null, "bé");
  }
}
