package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data file's string statistics, which the writer keeps itself (parquet's own are off for STRING columns), are
 * those of the values in each page, row group and file: minimum and maximum in the unsigned order of their UTF-8
 * bytes, and the nulls, in the page headers' column index and in the footer.
 */
class StringPageStatsTest {
  private static final StructType SCHEMA = StructType.empty().add("s", PrimitiveType.STRING)
      .add("n", PrimitiveType.LONG).add("t", PrimitiveType.STRING).add("u", PrimitiveType.STRING);

  @TempDir Path dir;

  @Test
  void everyPageAndRowGroupHoldsTheMinimumMaximumAndNullsOfItsValues() throws Exception {
    ObjectStore store = new LocalObjectStore(dir);
    List<String> pool = List.of("", "a", "ab", "ab\u0000", "abcdefgh", "abcdefgh\u0000", "abcdefghi", "abcdefgz",
        "zz", "\u00e9t\u00e9", "\u00e9", "\u007f", "\uD83D\uDE00 smile", "Z", "order-000123", "order-000124",
        "abcdefgh\u00e9", "abcdefgh\u00e9z", "abcdefghijklmnop", "abcdefghijklmnop\u00e9", "abcdefghijklmnoz");
    Random random = new Random(5);
    List<Row> rows = new ArrayList<>();
    // Runs of one value object longer than a row group (as a file's _source): a page may hold nothing else.
    List<String> runs = List.of("file:///landing/orders-00007.jsonl", "file:///landing/orders-00001.jsonl", "x", "");
    List<String> suffixes = List.of("", "a", "z", "\u00e9", "\u00e9z", "\u007f", "abcdefgh", "abcdefgh\u00e9",
        "abcdefghz", "\u0000");
    for (int i = 0; i < 30_000; i++) {
      boolean nullStretch = (i / 700) % 9 == 4; // pages of nulls only
      String s = nullStretch || random.nextInt(10) == 0 ? null
          : random.nextBoolean() ? pool.get(random.nextInt(pool.size())) : "v-" + random.nextInt(1_000_000);
      // One shared first eight bytes: the order is decided in the next eight, or after them.
      String u = "prefix00" + suffixes.get(random.nextInt(suffixes.size()));
      rows.add(Row.of(s, (long) i, i % 5 == 0 ? null : runs.get((i / 2_500) % runs.size()), u));
    }
    // Small pages and row groups: many of each.
    ParquetWriteOptions options = new ParquetWriteOptions(ParquetWriteOptions.Codec.SNAPPY, -1, 96 << 10, 1 << 10,
        DictionaryHints.none());
    WrittenFile file = ParquetDataWriter.write(store, "t/part-0.parquet", SCHEMA, rows.iterator(), options);

    int pagesChecked = 0;
    try (ParquetFileReader reader = ParquetFileReader.open(new StoreInputFile(store, file.key(), file.size()))) {
      List<BlockMetaData> blocks = reader.getFooter().getBlocks();
      assertThat(blocks).hasSizeGreaterThan(2);
      long first = 0;
      for (BlockMetaData block : blocks) {
        for (int c : new int[] {0, 2, 3}) {
          ColumnChunkMetaData chunk = block.getColumns().get(c);
          List<String> values = column(rows, c, first, first + block.getRowCount());
          assertStats(chunk.getStatistics(), values);
          ColumnIndex index = reader.readColumnIndex(chunk);
          OffsetIndex offsets = reader.readOffsetIndex(chunk);
          for (int p = 0; p < offsets.getPageCount(); p++) {
            List<String> page = column(rows, c, first + offsets.getFirstRowIndex(p),
                first + offsets.getLastRowIndex(p, block.getRowCount()) + 1);
            long nulls = page.stream().filter(v -> v == null).count();
            assertThat(index.getNullCounts().get(p)).as("nulls of page %d", p).isEqualTo(nulls);
            assertThat(index.getNullPages().get(p)).isEqualTo(nulls == page.size());
            if (nulls < page.size()) {
              assertThat(bytes(index.getMinValues().get(p))).as("min of page %d", p).isEqualTo(min(page));
              assertThat(bytes(index.getMaxValues().get(p))).as("max of page %d", p).isEqualTo(max(page));
            }
            pagesChecked++;
          }
        }
        first += block.getRowCount();
      }
    }
    assertThat(pagesChecked).isGreaterThan(100);
    assertThat(ParquetDataReader.read(store, file.key(), file.size(), SCHEMA).toList()).isEqualTo(rows);
  }

  private static void assertStats(Statistics<?> stats, List<String> values) {
    assertThat(stats.getNumNulls()).isEqualTo(values.stream().filter(v -> v == null).count());
    assertThat(stats.genericGetMin()).isNotNull();
    assertThat(stats.getMinBytes()).isEqualTo(min(values));
    assertThat(stats.getMaxBytes()).isEqualTo(max(values));
  }

  private static List<String> column(List<Row> rows, int c, long from, long to) {
    List<String> out = new ArrayList<>();
    for (long r = from; r < to; r++) {
      out.add((String) rows.get((int) r).get(c));
    }
    return out;
  }

  private static byte[] min(List<String> values) {
    return values.stream().filter(v -> v != null).map(v -> v.getBytes(StandardCharsets.UTF_8))
        .min(Arrays::compareUnsigned).orElseThrow();
  }

  private static byte[] max(List<String> values) {
    return values.stream().filter(v -> v != null).map(v -> v.getBytes(StandardCharsets.UTF_8))
        .max(Arrays::compareUnsigned).orElseThrow();
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }
}
