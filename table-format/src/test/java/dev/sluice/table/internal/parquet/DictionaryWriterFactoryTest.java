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
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
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

  /** A column written without a dictionary (a hint, or the writer's settings) gets parquet's PLAIN bytes. */
  @Test
  void aColumnWithoutDictionaryWritesParquetsPlainBytes() throws Exception {
    MessageType schema = MessageTypeParser.parseMessageType(
        "message m { required int64 t; required binary s (STRING); }");
    ParquetProperties props = ParquetProperties.builder().withDictionaryEncoding(false)
        .withValuesWriterFactory(new DictionaryWriterFactory()).build();
    ParquetProperties parquets = ParquetProperties.builder().withDictionaryEncoding(false).build();
    for (ColumnDescriptor column : schema.getColumns()) {
      ValuesWriter ours = props.newValuesWriter(column);
      ValuesWriter theirs = parquets.newValuesWriter(column);
      java.util.Random random = new java.util.Random(5);
      for (int i = 0; i < 10_000; i++) {
        if (column.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT64) {
          long v = random.nextLong();
          ours.writeLong(v);
          theirs.writeLong(v);
        } else {
          Binary v = Binary.fromString("order-" + random.nextInt(1_000_000));
          ours.writeBytes(v);
          theirs.writeBytes(v);
        }
      }

      assertThat(ours.getEncoding()).isEqualTo(Encoding.PLAIN).isEqualTo(theirs.getEncoding());
      assertThat(ours.getBufferedSize()).isEqualTo(theirs.getBufferedSize());
      assertThat(ours.getBytes().toByteArray()).isEqualTo(theirs.getBytes().toByteArray());
    }
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
