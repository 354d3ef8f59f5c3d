package dev.sluice.ingestion.source.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class TextLinesTest {
  @Test
  void lineEndFindsTheFirstNewlineAndWhetherTheBytesBeforeItAreAscii() {
    Random random = new Random(7);
    for (int round = 0; round < 20_000; round++) {
      byte[] bytes = new byte[random.nextInt(40)];
      for (int i = 0; i < bytes.length; i++) {
        int pick = random.nextInt(20);
        bytes[i] = (byte) (pick == 0 ? '\n' : pick == 1 ? 0x8A : pick == 2 ? 0xC3 : pick == 3 ? 0x0B : 'a' + pick);
      }
      int from = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
      int end = from;
      boolean ascii = true;
      while (end < bytes.length && bytes[end] != '\n') {
        ascii &= bytes[end] >= 0;
        end++;
      }
      assertThat(TextLines.lineEnd(bytes, from)).as("round %d", round).isEqualTo(ascii ? end : ~end);
    }
  }

  @Test
  void aNonAsciiByteAfterTheNewlineDoesNotMarkTheLine() {
    byte[] bytes = "ab\n\u00e9cdefghijkl".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(TextLines.lineEnd(bytes, 0)).isEqualTo(2);
    assertThat(TextLines.lineEnd(bytes, 3)).isEqualTo(~bytes.length);
    assertThat(TextLines.lineEnd("0123456789\u00e9\n".getBytes(java.nio.charset.StandardCharsets.UTF_8), 0))
        .isEqualTo(~12);
  }
}
