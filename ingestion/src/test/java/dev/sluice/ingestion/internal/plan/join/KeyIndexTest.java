package dev.sluice.ingestion.internal.plan.join;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class KeyIndexTest {
  @Test
  void findsEachKeysPositionAmongCollidingHashesAndMissesOthers() {
    // "Aa" and "BB" share a hashCode, as do "AaAa", "BBBB", "AaBB".
    Object[] keys = {"Aa", "BB", "AaAa", "BBBB", "AaBB", 42L, ByteBuffer.wrap(new byte[] {1, 2})};
    KeyIndex index = new KeyIndex(keys);

    for (int i = 0; i < keys.length; i++) {
      assertThat(index.positionOf(keys[i])).isEqualTo(i);
    }
    assertThat(index.positionOf(new String("BB"))).isEqualTo(1);
    assertThat(index.positionOf(ByteBuffer.wrap(new byte[] {1, 2}))).isEqualTo(6);
    assertThat(index.positionOf("BBAa")).isEqualTo(-1);
    assertThat(index.positionOf(43L)).isEqualTo(-1);
    assertThat(new KeyIndex(new Object[0]).positionOf("x")).isEqualTo(-1);
  }

  @Test
  void aLargeIndexFindsEveryKey() {
    Object[] keys = new Object[10_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = String.format("c-%05d", i);
    }
    KeyIndex index = new KeyIndex(keys);

    for (int i = 0; i < keys.length; i++) {
      assertThat(index.positionOf(String.format("c-%05d", i))).isEqualTo(i);
    }
    assertThat(index.positionOf("c-10000")).isEqualTo(-1);
  }
}
