package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;

/** The faster dictionary writes exactly the pages parquet's own binary dictionary writer writes. */
class BinaryDictionaryWriterTest {
  private static final HeapByteBufferAllocator HEAP = HeapByteBufferAllocator.getInstance();

  @Test
  void pagesAndDictionaryEqualParquetsAcrossPagesRehashesAndSharedValues() throws Exception {
    Random random = new Random(7);
    List<List<Binary>> pages = new ArrayList<>();
    Binary shared = Binary.fromString("file:///landing/orders-00001.jsonl");
    for (int p = 0; p < 4; p++) {
      List<Binary> page = new ArrayList<>();
      for (int i = 0; i < 5_000; i++) {
        String s = "c-" + random.nextInt(3_000);
        page.add(switch (i % 4) {
          case 0 -> Binary.fromConstantByteArray(s.getBytes(StandardCharsets.UTF_8));
          // a slice of a larger array
          case 1 -> Binary.fromConstantByteArray(("xx" + s + "yy").getBytes(StandardCharsets.UTF_8), 2, s.length());
          // not backed by an array
          case 2 -> Binary.fromConstantByteBuffer(direct(s));
          default -> shared;
        });
      }
      page.add(Binary.fromString("")); // an empty value is a value too
      pages.add(page);
    }

    assertThat(encode(ours(1 << 20), pages)).isEqualTo(encode(parquets(1 << 20), pages));
  }

  @Test
  void aDictionaryThatOutgrowsItsPageFallsBackToPlainAsParquetDoes() throws Exception {
    List<List<Binary>> pages = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      List<Binary> page = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        page.add(Binary.fromString("o-" + (p * 2_000 + i)));
      }
      pages.add(page);
    }

    List<String> ours = encode(ours(4_096), pages);
    assertThat(ours).isEqualTo(encode(parquets(4_096), pages));
    assertThat(ours).anyMatch(page -> page.startsWith(Encoding.PLAIN + ":"));
  }

  /**
   * A first page of all-new values gives the dictionary up at once and writes plain pages, where parquet's writer
   * hashes the whole page first (and may keep a dictionary of every value, which saves nothing).
   */
  @Test
  void aFirstPageOfDistinctValuesIsWrittenPlainWithoutADictionary() throws Exception {
    List<List<Binary>> pages = new ArrayList<>();
    for (int p = 0; p < 2; p++) {
      List<Binary> page = new ArrayList<>();
      for (int i = 0; i < 6_000; i++) {
        page.add(Binary.fromString("o-" + (p * 6_000 + i)));
      }
      pages.add(page);
    }

    assertThat(encode(ours(1 << 20), pages)).isEqualTo(encode(new PlainValuesWriter(64, 1 << 20, HEAP), pages))
        .endsWith("no dictionary");
  }

  @Test
  void givesTheDictionaryUpAfterItsFirstValuesOnlyWhenAllWereNew() {
    BinaryDictionaryWriter distinct = writer();
    BinaryDictionaryWriter repeating = writer();
    for (int i = 0; i < DictionarySlots.DISTINCT_PROBE; i++) {
      assertThat(distinct.shouldFallBack()).as("after %d values", i).isFalse();
      distinct.writeBytes(Binary.fromString("o-" + i));
      repeating.writeBytes(Binary.fromString("o-" + (i == 100 ? 7 : i)));
    }
    assertThat(distinct.shouldFallBack()).isTrue();
    assertThat(repeating.shouldFallBack()).isFalse();
  }

  private static BinaryDictionaryWriter writer() {
    return new BinaryDictionaryWriter(1 << 20, Encoding.PLAIN_DICTIONARY, Encoding.PLAIN_DICTIONARY, HEAP);
  }

  private static ByteBuffer direct(String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
    b.put(bytes).flip();
    return b;
  }

  private static ValuesWriter ours(int maxDictionaryBytes) {
    return FallbackValuesWriter.of(
        new BinaryDictionaryWriter(maxDictionaryBytes, Encoding.PLAIN_DICTIONARY, Encoding.PLAIN_DICTIONARY, HEAP),
        new PlainValuesWriter(64, 1 << 20, HEAP));
  }

  private static ValuesWriter parquets(int maxDictionaryBytes) {
    return FallbackValuesWriter.of(
        new DictionaryValuesWriter.PlainBinaryDictionaryValuesWriter(maxDictionaryBytes, Encoding.PLAIN_DICTIONARY,
            Encoding.PLAIN_DICTIONARY, HEAP),
        new PlainValuesWriter(64, 1 << 20, HEAP));
  }

  /** Each data page as "encoding:bytes", then the dictionary page. */
  private static List<String> encode(ValuesWriter writer, List<List<Binary>> pages) throws Exception {
    List<String> out = new ArrayList<>();
    for (List<Binary> page : pages) {
      for (Binary v : page) {
        writer.writeBytes(v);
      }
      out.add(PageText.page(writer));
    }
    out.add(PageText.dictionary(writer));
    return out;
  }
}
