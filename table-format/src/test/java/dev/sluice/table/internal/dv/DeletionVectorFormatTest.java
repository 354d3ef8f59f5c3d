package dev.sluice.table.internal.dv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.UUID;
import java.util.stream.LongStream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/** The encodings of PROTOCOL.md's deletion vector examples. */
class DeletionVectorFormatTest {
  @Test
  void aRelativeDescriptorNamesItsFileFromThePrefixAndTheUuid() {
    DeletionVectorDescriptor dv = DeletionVectorDescriptor.parse(
        "{\"storageType\":\"u\",\"pathOrInlineDv\":\"ab^-aqEH.-t@S}K{vb[*k^\",\"offset\":4,\"sizeInBytes\":40,"
            + "\"cardinality\":6}", "f.parquet");
    assertThat(dv.path()).isEqualTo("ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin");
    assertThat(dv.uniqueId()).isEqualTo("uab^-aqEH.-t@S}K{vb[*k^@4");
    UUID id = UUID.fromString("d2c639aa-8816-431a-aaf6-d3fe2512ff61");
    assertThat(Z85.decodeUuid(Z85.encodeUuid(id))).isEqualTo(id);
  }

  @Test
  void anInlineDescriptorHoldsTheRowIndexes() {
    DeletedRows rows = DeletedRows.deserialize(Z85.decode("wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", 40));
    assertThat(LongStream.range(0, 40).filter(rows::contains).boxed().toList()).containsExactly(3L, 4L, 7L, 11L, 18L, 29L);
    assertThat(rows.cardinality()).isEqualTo(6);
  }

  @Test
  void anInlineDescriptorWeWriteParsesBackToItsRows() {
    DeletedRows rows = DeletedRows.of(0, 7, 1L << 32);
    byte[] data = rows.serialize();
    DeletionVectorDescriptor dv = DeletionVectorDescriptor.parse(DeletionVectorDescriptor.inlineJson(data, rows), "f");
    assertThat(dv.inline()).isTrue();
    assertThat(dv.offset()).isNull();
    assertThat(dv.sizeInBytes()).isEqualTo(data.length);
    assertThat(dv.cardinality()).isEqualTo(3);
    DeletedRows back = DeletedRows.deserialize(Z85.decode(dv.pathOrInlineDv(), dv.sizeInBytes()));
    assertThat(back.contains(7)).isTrue();
    assertThat(back.contains(1L << 32)).isTrue();
    assertThat(back.cardinality()).isEqualTo(3);
  }

  @Test
  void rowIndexesAbove32BitsAndTheFileFramingRoundTrip() {
    byte[] data = DeletedRows.serialize(5, 1L << 33, (1L << 33) + 7);
    CRC32 crc = new CRC32();
    crc.update(data);
    byte[] region = ByteBuffer.allocate(data.length + 8).putInt(data.length).put(data).putInt((int) crc.getValue()).array();
    DeletedRows rows = DeletedRows.fromFileRegion(region, data.length);
    assertThat(rows.contains(5)).isTrue();
    assertThat(rows.contains((1L << 33) + 7)).isTrue();
    assertThat(rows.contains(6)).isFalse();
    assertThat(rows.cardinality()).isEqualTo(3);
    region[6] ^= 1;
    assertThatThrownBy(() -> DeletedRows.fromFileRegion(region, data.length)).hasMessageContaining("checksum");
    assertThatThrownBy(() -> DeletedRows.fromFileRegion(region, data.length + 1)).hasMessageContaining("size");
  }
}
