package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.junit.jupiter.api.Test;

/** The faster INT64 dictionary writes exactly the pages parquet's own long dictionary writer writes. */
class LongDictionaryWriterTest {
  private static final HeapByteBufferAllocator HEAP = HeapByteBufferAllocator.getInstance();

  @Test
  void pagesAndDictionaryEqualParquetsAcrossPagesRehashesRunsAndExtremes() throws Exception {
    Random random = new Random(11);
    List<long[]> pages = new ArrayList<>();
    for (int p = 0; p < 4; p++) {
      long[] page = new long[5_001];
      for (int i = 0; i < page.length; i++) {
        page[i] = switch (i % 5) {
          case 0 -> 1_704_067_200_000_000L + random.nextInt(3_000) * 1_000L; // timestamps in microseconds
          case 1 -> random.nextInt(200_000) - 100_000; // amounts in cents, negative too
          case 2 -> 1_704_067_200_123_456L; // a batch's one ingestion time
          case 3 -> i == 3 ? Long.MIN_VALUE : i == 8 ? Long.MAX_VALUE : 0L;
          default -> page[i - 1]; // a run: the value before again
        };
      }
      pages.add(page);
    }

    assertThat(encode(ours(1 << 20), pages)).isEqualTo(encode(parquets(1 << 20), pages));
  }

  @Test
  void aDictionaryThatOutgrowsItsPageFallsBackToPlainAsParquetDoes() throws Exception {
    List<long[]> pages = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      long[] page = new long[2_000];
      for (int i = 0; i < page.length; i++) {
        page[i] = 1_704_067_200_000_000L + (p * 2_000L + i) * 50_000L; // unique times, 50 ms apart
      }
      pages.add(page);
    }

    List<String> ours = encode(ours(4_096), pages);
    assertThat(ours).isEqualTo(encode(parquets(4_096), pages));
    assertThat(ours).anyMatch(page -> page.startsWith(Encoding.PLAIN + ":"));
  }

  /**
   * A first page of all-new values (event times) gives the dictionary up at once and writes plain pages, where
   * parquet's writer hashes the whole page first (and may keep a dictionary of every value, which saves nothing).
   */
  @Test
  void aFirstPageOfDistinctValuesIsWrittenPlainWithoutADictionary() throws Exception {
    List<long[]> pages = new ArrayList<>();
    for (int p = 0; p < 2; p++) {
      long[] page = new long[6_000];
      for (int i = 0; i < page.length; i++) {
        page[i] = 1_704_067_200_000_000L + (p * 6_000L + i) * 50_000L;
      }
      pages.add(page);
    }

    assertThat(encode(ours(1 << 20), pages)).isEqualTo(encode(new PlainValuesWriter(64, 1 << 20, HEAP), pages))
        .endsWith("no dictionary");
  }

  @Test
  void givesTheDictionaryUpAfterItsFirstValuesOnlyWhenAllWereNew() {
    LongDictionaryWriter distinct = new LongDictionaryWriter(1 << 20, Encoding.PLAIN_DICTIONARY,
        Encoding.PLAIN_DICTIONARY, HEAP);
    LongDictionaryWriter repeating = new LongDictionaryWriter(1 << 20, Encoding.PLAIN_DICTIONARY,
        Encoding.PLAIN_DICTIONARY, HEAP);
    for (int i = 0; i < DictionarySlots.DISTINCT_PROBE; i++) {
      assertThat(distinct.shouldFallBack()).as("after %d values", i).isFalse();
      distinct.writeLong(i);
      repeating.writeLong(i == 100 ? 7 : i);
    }
    assertThat(distinct.shouldFallBack()).isTrue();
    assertThat(repeating.shouldFallBack()).isFalse();
  }

  @Test
  void aNewRowGroupStartsAnEmptyDictionary() throws Exception {
    long[] first = new long[2_000];
    long[] second = new long[2_000];
    for (int i = 0; i < first.length; i++) {
      first[i] = i < 1_000 ? 7 : 9; // ends on 9
      second[i] = i < 1_000 ? 9 : 7; // starts on 9: a writer that kept the value before would give the old id
    }
    List<String> ours = rowGroups(ours(1 << 20), first, second);
    assertThat(ours).isEqualTo(rowGroups(parquets(1 << 20), first, second));
    assertThat(ours.get(ours.size() - 1)).startsWith(Encoding.PLAIN_DICTIONARY + "/2:");
  }

  private static ValuesWriter ours(int maxDictionaryBytes) {
    return FallbackValuesWriter.of(
        new LongDictionaryWriter(maxDictionaryBytes, Encoding.PLAIN_DICTIONARY, Encoding.PLAIN_DICTIONARY, HEAP),
        new PlainValuesWriter(64, 1 << 20, HEAP));
  }

  private static ValuesWriter parquets(int maxDictionaryBytes) {
    return FallbackValuesWriter.of(
        new DictionaryValuesWriter.PlainLongDictionaryValuesWriter(maxDictionaryBytes, Encoding.PLAIN_DICTIONARY,
            Encoding.PLAIN_DICTIONARY, HEAP),
        new PlainValuesWriter(64, 1 << 20, HEAP));
  }

  /** Each data page as "encoding:bytes", then the dictionary page. */
  private static List<String> encode(ValuesWriter writer, List<long[]> pages) throws Exception {
    List<String> out = new ArrayList<>();
    for (long[] page : pages) {
      for (long v : page) {
        writer.writeLong(v);
      }
      out.add(PageText.page(writer));
    }
    out.add(PageText.dictionary(writer));
    return out;
  }

  /** Each value array as a row group of one page: its page, its dictionary, then a fresh dictionary. */
  private static List<String> rowGroups(ValuesWriter writer, long[]... groups) throws Exception {
    List<String> out = new ArrayList<>();
    for (long[] group : groups) {
      out.addAll(encode(writer, List.<long[]>of(group)));
      writer.resetDictionary();
    }
    return out;
  }
}
