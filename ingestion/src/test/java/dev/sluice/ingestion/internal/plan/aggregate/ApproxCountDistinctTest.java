package dev.sluice.ingestion.internal.plan.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.ingestion.OutputMode;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ApproxCountDistinctTest {
  private static long xxh64(String text) {
    return XxHash64.hash(text.getBytes(StandardCharsets.UTF_8), 0);
  }

  @Test
  void xxHash64MatchesTheReferenceVectors() {
    assertThat(xxh64("")).isEqualTo(0xEF46DB3751D8E999L);
    assertThat(xxh64("The quick brown fox jumps over the lazy dog")).isEqualTo(0x0B242D361FDA71BCL);
    assertThat(xxh64("Nobody inspects the spammish repetition")).isEqualTo(0xFBCEA83C8A378BF1L);
  }

  @Test
  void longAndIntShortcutsHashTheirLittleEndianBytes() {
    for (long v : new long[] {0, 1, -1, Long.MIN_VALUE, 0x0123456789ABCDEFL}) {
      byte[] b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
      assertThat(XxHash64.hashLong(v, 42)).isEqualTo(XxHash64.hash(b, 42));
      byte[] i = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) v).array();
      assertThat(XxHash64.hashInt((int) v, 42)).isEqualTo(XxHash64.hash(i, 42));
    }
  }

  @Test
  void precisionFollowsSparksFormula() {
    assertThat(HyperLogLog.precision(0.05)).isEqualTo(9);
    assertThat(HyperLogLog.precision(0.01)).isEqualTo(14);
    assertThat(HyperLogLog.precision(0.39)).isEqualTo(4);
  }

  private static long estimate(int distinct, int repeats, double rsd) {
    byte[] registers = HyperLogLog.registers(HyperLogLog.precision(rsd));
    for (int r = 0; r < repeats; r++) {
      for (int i = 0; i < distinct; i++) {
        HyperLogLog.add(registers, ApproxCountDistinctAggregator.hash("user-" + i, PrimitiveType.STRING));
      }
    }
    return HyperLogLog.estimate(registers);
  }

  @Test
  void estimatesStayWithinThreeStandardDeviations() {
    for (double rsd : new double[] {0.05, 0.02}) {
      for (int n : new int[] {1, 10, 100, 1_000, 5_000, 100_000}) {
        assertThat((double) estimate(n, 1, rsd)).as("n=%d rsd=%s", n, rsd).isCloseTo(n, within(3 * rsd * n + 0.5));
      }
    }
  }

  @Test
  void repeatedValuesAreNotCountedTwice() {
    assertThat(estimate(1_000, 3, 0.05)).isEqualTo(estimate(1_000, 1, 0.05));
    assertThat(estimate(0, 1, 0.05)).isZero();
  }

  @Test
  void operatorCountsHundredThousandDistinctValuesAcrossBatchesWithinTheBound() {
    StructType input = StructType.of(StructField.of("k", PrimitiveType.STRING),
        StructField.of("user", PrimitiveType.LONG));
    AggregationHarness h = AggregationHarness.of(input, OutputMode.COMPLETE, null, null, List.of("k"),
        AggregateSpec.approxCountDistinct("user"), AggregateSpec.approxCountDistinct("user", 0.01).as("precise"));
    List<Row> out = List.of();
    for (int batch = 0; batch < 4; batch++) {
      List<Row> rows = new ArrayList<>();
      for (long u = batch * 25_000L; u < (batch + 1) * 25_000L; u++) {
        rows.add(Row.of("k", u));
        rows.add(Row.of("k", u / 2));
        rows.add(Row.of("k", null));
      }
      out = h.run(0, rows);
    }
    assertThat((double) (Long) out.get(0).get(1)).isCloseTo(100_000, within(3 * 0.05 * 100_000));
    assertThat((double) (Long) out.get(0).get(2)).isCloseTo(100_000, within(3 * 0.01 * 100_000));
  }

  @Test
  void registersReadFromStateAreCopiedBeforeUpdating() {
    StructType input = StructType.of(StructField.of("k", PrimitiveType.STRING), StructField.of("v", PrimitiveType.INTEGER));
    AggregationHarness h = AggregationHarness.of(input, OutputMode.UPDATE, null, null, List.of("k"),
        AggregateSpec.approxCountDistinct("v"));
    h.run(0, Row.of("k", 1));
    var first = h.stateEntries().get(0).value();
    byte[] before = ((byte[]) first.get(0)).clone();
    h.run(0, Row.of("k", 2), Row.of("k", 3));
    assertThat((byte[]) first.get(0)).as("the previous version's value").isEqualTo(before);
  }
}
