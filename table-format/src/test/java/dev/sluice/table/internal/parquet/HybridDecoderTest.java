package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HybridDecoderTest {
  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3, 7, 8, 13, 17, 24, 31, 32})
  void decodesWhatParquetJavaEncodesInRunsAndPackedGroups(int bitWidth) throws Exception {
    Random random = new Random(bitWidth);
    int n = 10_007;
    int[] values = new int[n];
    long max = bitWidth == 32 ? 0xFFFF_FFFFL : (1L << bitWidth) - 1;
    for (int i = 0; i < n; i++) {
      // Stretches of one value (RLE runs) between stretches of random ones (bit-packed groups).
      boolean repeat = (i / 100) % 2 == 0;
      values[i] = repeat && i > 0 ? values[i - 1] : (int) (random.nextLong() & max);
    }
    RunLengthBitPackingHybridEncoder encoder =
        new RunLengthBitPackingHybridEncoder(bitWidth, 64, 1 << 16, new HeapByteBufferAllocator());
    for (int v : values) {
      encoder.writeInt(v);
    }
    byte[] encoded = encoder.toBytes().toByteArray();

    HybridDecoder decoder = new HybridDecoder(encoded, 0, encoded.length, bitWidth);
    int[] decoded = new int[n];
    // In uneven steps, as a reader asks for a page's rows run by run.
    for (int at = 0, step = 1; at < n; at += step, step = step * 3 % 1000 + 1) {
      int take = Math.min(step, n - at);
      int[] part = new int[take];
      decoder.read(part, take);
      System.arraycopy(part, 0, decoded, at, take);
    }

    assertThat(decoded).containsExactly(values);
  }
}
