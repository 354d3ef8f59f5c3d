package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.DecodedRows;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

class ColumnarFileReaderTest {
  private static final StructType SCHEMA = StructType.of(
      StructField.of("id", PrimitiveType.STRING, false),
      StructField.of("tier", PrimitiveType.STRING),
      StructField.of("n", PrimitiveType.LONG),
      StructField.of("i", PrimitiveType.INTEGER),
      StructField.of("day", PrimitiveType.DATE),
      StructField.of("ts", PrimitiveType.TIMESTAMP),
      StructField.of("amount", new DecimalType(10, 2)),
      StructField.of("small", new DecimalType(5, 1)),
      StructField.of("x", PrimitiveType.DOUBLE),
      StructField.of("blob", PrimitiveType.BINARY));

  @TempDir Path dir;

  /** Rows with nulls in every nullable column, few distinct values (dictionary pages) and many (plain ones). */
  private static List<Row> rows(int n, long seed) {
    Random random = new Random(seed);
    List<Row> out = new ArrayList<>();
    Instant t0 = Instant.parse("2024-01-01T00:00:00Z");
    for (int k = 0; k < n; k++) {
      boolean nulls = random.nextInt(10) == 0;
      out.add(Row.of(
          "o-" + k + (k % 3 == 0 ? "é" : ""),
          nulls ? null : new String[] {"standard", "premium", "enterprise"}[random.nextInt(3)],
          nulls && k % 2 == 0 ? null : random.nextLong(),
          nulls ? null : random.nextInt(),
          nulls ? null : LocalDate.ofEpochDay(random.nextInt(40_000) - 20_000),
          nulls ? null : t0.plusNanos((random.nextLong() % 1_000_000_000_000_000L) / 1000 * 1000),
          nulls ? null : BigDecimal.valueOf(random.nextInt(1_000_000) - 500_000, 2),
          nulls ? null : BigDecimal.valueOf(random.nextInt(2_000), 1),
          nulls ? null : random.nextGaussian(),
          nulls ? null : new byte[] {(byte) k, (byte) (k >> 8), 0}));
    }
    return out;
  }

  private long write(String key, List<Row> rows, ParquetWriteOptions options) {
    ParquetDataWriter writer = ParquetDataWriter.open(new LocalObjectStore(dir), key, SCHEMA, options);
    rows.forEach(writer::write);
    writer.close();
    try {
      return Files.size(dir.resolve(key));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private List<Row> decoded(String key, long size, StructType schema, List<Integer> runSizes) {
    Optional<CloseableIterator<DecodedRows>> runs = ColumnarFileReader.open(new LocalObjectStore(dir), key, size, schema);
    assertThat(runs).isPresent();
    List<Row> out = new ArrayList<>();
    try (CloseableIterator<DecodedRows> it = runs.get()) {
      while (it.hasNext()) {
        DecodedRows run = it.next();
        runSizes.add(run.size());
        for (int i = 0; i < run.size(); i++) {
          out.add(run.row(i));
        }
      }
    }
    return out;
  }

  private List<Row> rowsRead(String key, long size, StructType schema) {
    try (CloseableIterator<Row> it = ParquetDataReader.read(new LocalObjectStore(dir), key, size, schema)) {
      return it.toList();
    }
  }

  private static void assertSameRows(List<Row> actual, List<Row> expected) {
    assertThat(actual).hasSize(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      Row a = actual.get(i);
      Row e = expected.get(i);
      assertThat(Row.equalValues(a, e)).as(() -> "row " + a + ": " + java.util.Arrays.deepToString(a.toArray())
          + " vs " + java.util.Arrays.deepToString(e.toArray())).isTrue();
    }
  }

  @Test
  void decodesWhatTheRowReaderReadsAcrossPagesRowGroupsAndRuns() {
    List<Row> rows = rows(150_000, 7);
    // Small row groups: several per file, each of several pages; the first large enough for two runs.
    long size = write("a.parquet", rows, ParquetWriteOptions.defaults().withRowGroupSize(4L << 20));
    List<Integer> runs = new ArrayList<>();

    List<Row> decoded = decoded("a.parquet", size, SCHEMA, runs);

    assertSameRows(decoded, rowsRead("a.parquet", size, SCHEMA));
    assertSameRows(decoded, rows);
    assertThat(runs).hasSizeGreaterThan(2).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(ColumnarFileReader.RUN));
  }

  @Test
  void aColumnTheFileLacksIsAllNullAndColumnsComeInTheReadSchemasOrder() {
    List<Row> rows = rows(1_000, 3);
    long size = write("b.parquet", rows, ParquetWriteOptions.defaults());
    StructType read = StructType.of(StructField.of("note", PrimitiveType.STRING), SCHEMA.field(2), SCHEMA.field(0));

    List<Row> decoded = decoded("b.parquet", size, read, new ArrayList<>());

    assertSameRows(decoded, rowsRead("b.parquet", size, read));
    assertThat(decoded.get(5).get(0)).isNull();
    assertThat(decoded.get(5).get(2)).isEqualTo(rows.get(5).get(0));
  }

  /**
   * Version 2 pages (levels outside the compressed data) with the encodings parquet-java writes for them (DELTA_*
   * and RLE_DICTIONARY), and a dictionary that overflows into plain pages mid-chunk.
   */
  @ParameterizedTest
  @EnumSource(value = ParquetProperties.WriterVersion.class)
  void decodesPageVersionsAndEncodingsOtherWritersUse(ParquetProperties.WriterVersion version) throws Exception {
    MessageType type = MessageTypeParser.parseMessageType("""
        message m {
          required binary id (STRING);
          optional binary tier (STRING);
          optional int64 n;
          optional int32 i;
          optional int64 ts (TIMESTAMP(MICROS,true));
          optional int64 amount (DECIMAL(10,2));
          optional double x;
        }""");
    Random random = new Random(5);
    try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new StoreOutputFile(new LocalObjectStore(dir),
            "v.parquet"))
        .withType(type)
        .withConf(new PlainParquetConfiguration())
        .withCodecFactory(PageCodecs.INSTANCE)
        .withCompressionCodec(CompressionCodecName.SNAPPY)
        .withWriterVersion(version)
        .withPageSize(16 * 1024)
        .withDictionaryPageSize(8 * 1024)
        .build()) {
      SimpleGroupFactory groups = new SimpleGroupFactory(type);
      for (int k = 0; k < 30_000; k++) {
        Group g = groups.newGroup().append("id", "o-" + k);
        if (k % 7 != 0) {
          g.append("tier", k < 20_000 ? "t" + (k % 3) : "u" + k); // a dictionary, then too many values for it
          g.append("n", random.nextLong()).append("i", random.nextInt(100)).append("ts", 1_700_000_000_000_000L + k)
              .append("amount", (long) random.nextInt(100_000)).append("x", random.nextDouble());
        }
        writer.write(g);
      }
    }
    long size = Files.size(dir.resolve("v.parquet"));
    StructType read = StructType.of(StructField.of("id", PrimitiveType.STRING), StructField.of("tier",
        PrimitiveType.STRING), StructField.of("n", PrimitiveType.LONG), StructField.of("i", PrimitiveType.INTEGER),
        StructField.of("ts", PrimitiveType.TIMESTAMP), StructField.of("amount", new DecimalType(10, 2)),
        StructField.of("x", PrimitiveType.DOUBLE));

    List<Row> decoded = decoded("v.parquet", size, read, new ArrayList<>());

    assertSameRows(decoded, rowsRead("v.parquet", size, read));
    assertThat(decoded).hasSize(30_000);
    assertThat(decoded.get(7).get(1)).isNull();
    assertThat(decoded.get(25_001).get(1)).isEqualTo("u25001");
  }

  @Test
  void leavesToTheRowReaderTypesAndConversionsItDoesNotDecode() {
    long size = write("c.parquet", rows(10, 1), ParquetWriteOptions.defaults());
    LocalObjectStore store = new LocalObjectStore(dir);

    // Another decimal scale (the row reader rescales), a type without a decoded form, a wider decimal.
    assertThat(ColumnarFileReader.open(store, "c.parquet", size,
        StructType.of(StructField.of("amount", new DecimalType(12, 3))))).isEmpty();
    assertThat(ColumnarFileReader.open(store, "c.parquet", size,
        StructType.of(StructField.of("flag", PrimitiveType.BOOLEAN)))).isEmpty();
    assertThat(ColumnarFileReader.open(store, "c.parquet", size,
        StructType.of(StructField.of("amount", new DecimalType(20, 2))))).isEmpty();
    // A timestamp read as a long is a conversion too.
    assertThat(ColumnarFileReader.open(store, "c.parquet", size,
        StructType.of(StructField.of("ts", PrimitiveType.STRING)))).isEmpty();
  }
}
