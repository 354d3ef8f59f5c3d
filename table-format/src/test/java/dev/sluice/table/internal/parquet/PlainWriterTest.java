package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;

/** {@link PlainWriter} writes the bytes parquet's {@link PlainValuesWriter} writes, page after page. */
class PlainWriterTest {
  private static void longsAndBinaries(ValuesWriter w, long seed, int n) {
    Random random = new Random(seed);
    for (int i = 0; i < n; i++) {
      w.writeLong(random.nextLong());
      byte[] text = ("order-" + random.nextInt(1_000_000) + "-é").repeat(random.nextInt(4))
          .getBytes(StandardCharsets.UTF_8);
      w.writeBytes(i % 3 == 0 ? Binary.fromConstantByteArray(text)
          : Binary.fromConstantByteArray(("xx" + new String(text, StandardCharsets.UTF_8) + "yy")
              .getBytes(StandardCharsets.UTF_8), 2, text.length));
      w.writeInteger(random.nextInt());
    }
  }

  @Test
  void writesParquetsPlainBytesAndSizesOverPagesAfterReset() throws Exception {
    PlainWriter ours = new PlainWriter(64);
    PlainValuesWriter theirs = new PlainValuesWriter(64, 1 << 20, new HeapByteBufferAllocator());
    for (int page = 0; page < 3; page++) {
      // A big page, then smaller ones: nothing of an earlier page may show in a later one.
      int n = page == 0 ? 20_000 : 7 - page;
      longsAndBinaries(ours, page, n);
      longsAndBinaries(theirs, page, n);

      assertThat(ours.getBufferedSize()).isEqualTo(theirs.getBufferedSize());
      assertThat(ours.getBytes().toByteArray()).isEqualTo(theirs.getBytes().toByteArray());
      assertThat(ours.getEncoding()).isEqualTo(Encoding.PLAIN);
      ours.reset();
      theirs.reset();
      assertThat(ours.getBufferedSize()).isZero();
    }
    assertThat(ours.getAllocatedSize()).isGreaterThan(20_000L * 8);
  }
}
