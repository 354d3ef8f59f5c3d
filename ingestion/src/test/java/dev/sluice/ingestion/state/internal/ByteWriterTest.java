package dev.sluice.ingestion.state.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ByteWriterTest {
  /** Varints of every length written back to back (a wide store may run past the end) read back as written. */
  @Test
  void varintsOfEveryLengthReadBackInOrder() throws IOException {
    SplittableRandom random = new SplittableRandom(11);
    long[] values = new long[5_000];
    for (int i = 0; i < values.length; i++) {
      values[i] = i < 64 ? (i == 0 ? 0 : 1L << (i - 1)) : random.nextLong() >>> random.nextInt(64);
    }
    ByteWriter out = new ByteWriter(16);
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    for (long v : values) {
      out.writeVarLong(v);
      out.writeByte(0xAB); // a neighbour the wide store must not swallow
      long rest = v;
      while ((rest & ~0x7FL) != 0) {
        expected.write((int) ((rest & 0x7F) | 0x80));
        rest >>>= 7;
      }
      expected.write((int) rest);
      expected.write(0xAB);
    }
    assertThat(out.toByteArray()).isEqualTo(expected.toByteArray());
    ByteReader in = new ByteReader();
    in.reset(out.toByteArray());
    for (long v : values) {
      assertThat(in.readVarLong()).isEqualTo(v);
      assertThat(in.readByte()).isEqualTo(0xAB);
    }
  }
}
