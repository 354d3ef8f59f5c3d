package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DictionaryWriterFactoryTest {
  private static final StructType SCHEMA = StructType.empty().add("n", PrimitiveType.INTEGER);

  @TempDir Path dir;

  /**
   * A file's columns of other types (here INT32) keep its own settings in every row group, also when another file
   * started in between: Parquet's default factory is one static instance holding the last file's properties.
   */
  @Test
  void aFileKeepsItsOwnDictionarySettingsWhileAnotherFileIsWritten() throws Exception {
    ObjectStore store = new LocalObjectStore(dir);
    DictionaryHints plainN = DictionaryHints.create();
    plainN.record("n", DictionaryHints.MIN_VALUES, true /* fellBack: the next files write n plain */);
    ParquetWriteOptions small = new ParquetWriteOptions(ParquetWriteOptions.Codec.SNAPPY, -1, 32 << 10, 1 << 10,
        plainN);
    ParquetDataWriter plain = ParquetDataWriter.open(store, "plain.parquet", SCHEMA, small);
    ParquetDataWriter other = ParquetDataWriter.open(store, "other.parquet", SCHEMA,
        small.withDictionaryHints(DictionaryHints.none()));
    // A hundred distinct values in random order: a dictionary takes them, and the pages don't compress to nothing.
    java.util.Random random = new java.util.Random(3);
    int[] pool = random.ints(100).toArray();
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 200_000; i++) {
      rows.add(Row.of(pool[random.nextInt(pool.length)]));
    }
    rows.forEach(plain::write);
    rows.forEach(other::write);
    WrittenFile plainFile = plain.close();
    WrittenFile otherFile = other.close();

    assertThat(dictionaryPages(store, plainFile)).hasSizeGreaterThan(2).containsOnly(false);
    assertThat(dictionaryPages(store, otherFile)).hasSizeGreaterThan(2).containsOnly(true);
  }

  private static List<Boolean> dictionaryPages(ObjectStore store, WrittenFile file) throws Exception {
    List<Boolean> out = new ArrayList<>();
    try (ParquetFileReader reader = ParquetFileReader.open(new StoreInputFile(store, file.key(), file.size()))) {
      for (BlockMetaData block : reader.getFooter().getBlocks()) {
        out.add(block.getColumns().get(0).hasDictionaryPage());
      }
    }
    return out;
  }
}
