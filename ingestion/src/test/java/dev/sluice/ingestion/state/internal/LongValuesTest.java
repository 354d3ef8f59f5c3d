package dev.sluice.ingestion.state.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A long kept in place of its value array encodes exactly as the state codec writes the one-LONG value row. */
class LongValuesTest {
  private final StateRowCodec codec = new StateRowCodec(
      new StructCodec(StructType.empty().add("id", PrimitiveType.STRING), "key"),
      new StructCodec(StructType.empty().add("expiresAt", PrimitiveType.LONG), "value"));

  @Test
  void encodesAsTheCodecAndReadsBack() {
    Random random = new Random(7);
    long[] values = new long[2_000];
    long[] extremes = {0, -1, 1, 63, 64, -64, -65, 127, 128, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1};
    System.arraycopy(extremes, 0, values, 0, extremes.length);
    for (int i = extremes.length; i < values.length; i++) {
      values[i] = random.nextLong() >> random.nextInt(64);
    }
    for (long v : values) {
      byte[] bytes = codec.encodeValue(Row.of(v));
      assertThat(LongValues.encode(v)).as("%d", v).isEqualTo(bytes);
      assertThat(LongValues.encodedLength(v)).isEqualTo(bytes.length);
      assertThat(LongValues.fits(bytes)).isTrue();
      assertThat(LongValues.decode(bytes)).isEqualTo(v);
      ByteWriter out = new ByteWriter(16);
      LongValues.write(out, v);
      assertThat(out.toByteArray()).isEqualTo(bytes);
    }
  }

  @Test
  void aNullOrAnotherLayoutDoesNotFit() {
    assertThat(LongValues.fits(codec.encodeValue(Row.of((Object) null)))).isFalse();
    assertThat(LongValues.fits(new byte[] {0, (byte) 0x80, 0})).isFalse(); // not the shortest varint
    assertThat(LongValues.fits(new byte[] {0, 2, 5})).isFalse(); // bytes after the varint
    assertThat(LongValues.fits(new byte[] {0})).isFalse();
    byte[] overlong = LongValues.encode(Long.MIN_VALUE).clone(); // ten varint bytes, the last one holding bit 63
    overlong[10] = 3;
    assertThat(LongValues.fits(overlong)).isFalse();
  }

  @Test
  void aMapOfLongsTurnsIntoArraysForAValueThatIsNotOneAndKeepsEveryEntry() {
    BytesMap map = BytesMap.withLongValues();
    for (int i = 0; i < 1_000; i++) {
      map.put(("k" + i).getBytes(), LongValues.encode(i * 1_000_003L));
    }
    assertThat(map.hasLongValues()).isTrue();
    byte[] nullValue = codec.encodeValue(Row.of((Object) null));
    map.put("null".getBytes(), nullValue);
    assertThat(map.hasLongValues()).isFalse();
    assertThat(map.size()).isEqualTo(1_001);
    for (int i = 0; i < 1_000; i++) {
      assertThat(map.get(("k" + i).getBytes())).isEqualTo(LongValues.encode(i * 1_000_003L));
    }
    assertThat(map.get("null".getBytes())).isEqualTo(nullValue);
  }
}
