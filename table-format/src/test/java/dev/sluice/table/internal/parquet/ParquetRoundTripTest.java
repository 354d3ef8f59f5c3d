package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.ProjectedRow;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.SchemaMismatchException;
import dev.sluice.table.exceptions.UnsupportedTableFeatureException;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ParquetRoundTripTest {
  private static final StructType NESTED = StructType.empty()
      .add("x", PrimitiveType.INTEGER)
      .add("y", StructType.empty().add("z", PrimitiveType.STRING));

  static final StructType ALL_TYPES = StructType.empty()
      .add("s", PrimitiveType.STRING)
      .add("l", PrimitiveType.LONG)
      .add("i", PrimitiveType.INTEGER)
      .add("sh", PrimitiveType.SHORT)
      .add("b", PrimitiveType.BYTE)
      .add("d", PrimitiveType.DOUBLE)
      .add("f", PrimitiveType.FLOAT)
      .add("bool", PrimitiveType.BOOLEAN)
      .add("bin", PrimitiveType.BINARY)
      .add("date", PrimitiveType.DATE)
      .add("ts", PrimitiveType.TIMESTAMP)
      .add("dec_small", DecimalType.of(5, 2))
      .add("dec_mid", DecimalType.of(18, 6))
      .add("dec_big", DecimalType.of(38, 10))
      .add("nested", NESTED)
      .add("ints", new ArrayType(PrimitiveType.INTEGER, true))
      .add("structs", new ArrayType(StructType.empty().add("v", PrimitiveType.LONG), true))
      .add("matrix", new ArrayType(new ArrayType(PrimitiveType.STRING, true), true))
      .add("tags", new MapType(PrimitiveType.STRING, PrimitiveType.LONG, true))
      .add("deep", new MapType(PrimitiveType.STRING, new ArrayType(NESTED, true), true))
      .add(StructField.of("required", PrimitiveType.LONG, false));

  @TempDir Path dir;
  ObjectStore store;

  @BeforeEach
  void setUp() {
    store = new LocalObjectStore(dir);
  }

  static Row fullRow(int n) {
    Map<String, Long> tags = new LinkedHashMap<>();
    tags.put("a" + n, (long) n);
    tags.put("none", null);
    Map<String, Object> deep = new LinkedHashMap<>();
    deep.put("k", Arrays.asList(Row.of(n, Row.of("z" + n)), null, Row.of(null, null)));
    return Row.of(
        "str-" + n + "-\u00e9\uD83D\uDE00",
        Long.MAX_VALUE - n,
        -n,
        (short) (n * 100),
        (byte) (n - 128),
        n + 0.25,
        n + 0.5f,
        n % 2 == 0,
        new byte[] {(byte) n, 0, -1},
        LocalDate.of(1969, 12, 31).plusDays(n),
        Instant.parse("1969-12-31T23:59:59.999999Z").plusSeconds(n * 86_400L),
        new BigDecimal("-123.45").add(BigDecimal.valueOf(n)),
        new BigDecimal("123456789012.123456").negate(),
        new BigDecimal("1234567890123456789012345678.0123456789"),
        Row.of(n, Row.of("zz" + n)),
        Arrays.asList(1, null, n),
        Arrays.asList(Row.of((long) n), null, Row.of((Object) null)),
        Arrays.asList(List.of("a", "b"), List.of(), null, Arrays.asList((String) null)),
        tags,
        deep,
        (long) n);
  }

  static Row nullRow() {
    Object[] values = new Object[ALL_TYPES.size()];
    values[values.length - 1] = 0L;
    return Row.of(values);
  }

  private List<Row> roundTrip(StructType schema, List<Row> rows, ParquetWriteOptions options) {
    WrittenFile written = ParquetDataWriter.write(store, "t/part-0.parquet", schema, rows.iterator(), options);
    assertThat(written.size()).isEqualTo(store.status("t/part-0.parquet").orElseThrow().size());
    assertThat(written.numRecords()).isEqualTo(rows.size());
    return ParquetDataReader.read(store, written.key(), written.size(), schema).toList();
  }

  /**
   * A flat schema is written a chunk of rows at a time, column after column: values, nulls and every layout survive
   * across chunks and across row groups that end inside a chunk.
   */
  @Test
  void flatRowsSurviveAcrossChunksAndRowGroups() throws Exception {
    StructType flat = StructType.empty();
    for (int i = 0; i < ALL_TYPES.size(); i++) {
      if (ALL_TYPES.field(i).type() instanceof PrimitiveType || ALL_TYPES.field(i).type() instanceof DecimalType) {
        flat = flat.add(ALL_TYPES.field(i));
      }
    }
    List<Row> rows = new ArrayList<>();
    int n = ColumnChunk.ROWS * 3 + 123;
    for (int r = 0; r < n; r++) {
      Row full = fullRow(r % 200);
      Object[] values = new Object[flat.size()];
      for (int c = 0; c < flat.size(); c++) {
        // Nulls in stretches and scattered, the required column never.
        boolean isNull = c < flat.size() - 1 && (r % 7 == c % 7 || (r / 500) % 4 == 2);
        values[c] = isNull ? null : full.get(ALL_TYPES.indexOf(flat.field(c).name()));
      }
      rows.add(Row.of(values));
    }
    ParquetWriteOptions small = new ParquetWriteOptions(ParquetWriteOptions.Codec.SNAPPY, -1, 16 << 10, 4 << 10,
        DictionaryHints.none());

    List<Row> read = roundTrip(flat, rows, small);

    assertThat(read).hasSize(n);
    for (int r = 0; r < n; r++) {
      assertThat(Row.equalValues(read.get(r), rows.get(r))).as("row %d: %s", r, read.get(r)).isTrue();
    }
    try (ParquetFileReader reader = ParquetFileReader.open(new StoreInputFile(store, "t/part-0.parquet",
        store.status("t/part-0.parquet").orElseThrow().size()))) {
      assertThat(reader.getFooter().getBlocks()).hasSizeGreaterThan(2);
    }
  }

  @ParameterizedTest
  @EnumSource(ParquetWriteOptions.Codec.class)
  void everyTypeSurvivesARoundTripWithEitherCodec(ParquetWriteOptions.Codec codec) throws Exception {
    List<Row> rows = new ArrayList<>();
    for (int n = 0; n < 50; n++) {
      rows.add(fullRow(n));
    }
    rows.add(nullRow());

    List<Row> read = roundTrip(ALL_TYPES, rows, ParquetWriteOptions.defaults().withCodec(codec));

    assertThat(read).containsExactlyElementsOf(rows);
    try (ParquetFileReader reader = ParquetFileReader.open(new StoreInputFile(store, "t/part-0.parquet", -1))) {
      assertThat(reader.getRowGroups().get(0).getColumns().get(0).getCodec())
          .isEqualTo(CompressionCodecName.valueOf(codec.name()));
    }
  }

  /** What the parquet-avro writer (before Sluice wrote columns itself) put into add.stats for these rows. */
  private static final String PARQUET_AVRO_STATS = "{\"numRecords\":51,"
        + "\"minValues\":{\"s\":\"str-0-\u00E9\uD83D\uDE00\",\"l\":9223372036854775758,\"i\":-49,\"sh\":0,\"b\":-128,\"d\":0.25,\"f\":0.5,\"date\":\"1969-12-31\",\"ts\":\"1969-12-31T23:59:59.999Z\",\"dec_small\":-123.45,\"dec_mid\":-123456789012.123456,\"dec_big\":1234567890123456789012345678.0123456789,\"nested\":{\"x\":0,\"y\":{\"z\":\"zz0\"}},\"required\":0},"
        + "\"maxValues\":{\"s\":\"str-9-\u00E9\uD83D\uDE00\",\"l\":9223372036854775807,\"i\":0,\"sh\":4900,\"b\":-79,\"d\":49.25,\"f\":49.5,\"date\":\"1970-02-18\",\"ts\":\"1970-02-18T23:59:59.999Z\",\"dec_small\":-74.45,\"dec_mid\":-123456789012.123456,\"dec_big\":1234567890123456789012345678.0123456789,\"nested\":{\"x\":49,\"y\":{\"z\":\"zz9\"}},\"required\":49},"
        + "\"nullCount\":{\"s\":1,\"l\":1,\"i\":1,\"sh\":1,\"b\":1,\"d\":1,\"f\":1,\"bool\":1,\"bin\":1,\"date\":1,\"ts\":1,\"dec_small\":1,\"dec_mid\":1,\"dec_big\":1,\"nested\":{\"x\":1,\"y\":{\"z\":1}},\"ints\":1,\"structs\":1,\"matrix\":1,\"tags\":1,\"deep\":1,\"required\":0}}";

  @Test
  void everyTypeGetsTheStatsTheParquetAvroWriterGave() {
    List<Row> rows = new ArrayList<>();
    for (int n = 0; n < 50; n++) {
      rows.add(fullRow(n));
    }
    rows.add(nullRow());

    WrittenFile written = ParquetDataWriter.write(store, "t/s.parquet", ALL_TYPES, rows.iterator(),
        ParquetWriteOptions.defaults().withNumIndexedCols(-1));

    assertThat(written.stats()).isEqualTo(PARQUET_AVRO_STATS);
    assertThat(ParquetDataReader.read(store, written.key(), written.size(), ALL_TYPES).toList())
        .containsExactlyElementsOf(rows);
  }

  @ParameterizedTest
  @EnumSource(ParquetWriteOptions.Codec.class)
  void anEmptyFileHasNoRowsAndValidStats(ParquetWriteOptions.Codec codec) {
    WrittenFile written = ParquetDataWriter.write(
        store, "t/empty.parquet", ALL_TYPES, List.<Row>of().iterator(), ParquetWriteOptions.defaults().withCodec(codec));

    assertThat(written.numRecords()).isZero();
    assertThat(written.size()).isEqualTo(store.status("t/empty.parquet").orElseThrow().size()).isPositive();
    assertThat(ParquetDataReader.read(store, written.key(), -1, ALL_TYPES).toList()).isEmpty();
    assertThat(FileStats.parse(written.stats(), ALL_TYPES).numRecords()).hasValue(0);
  }

  @Test
  void theParquetSchemaHasSparksLayoutAndTheRealColumnNames() throws Exception {
    StructType schema = StructType.empty()
        .add("a-b", PrimitiveType.TIMESTAMP)
        .add("1col", new ArrayType(PrimitiveType.BYTE, true))
        .add("a b.c", new MapType(PrimitiveType.STRING, DecimalType.of(10, 2), true))
        .add("a_b", PrimitiveType.SHORT);
    Row row = Row.of(Instant.parse("2024-01-02T03:04:05.123456Z"), Arrays.asList((byte) 1, null),
        Map.of("k", new BigDecimal("1.50")), (short) 7);

    assertThat(roundTrip(schema, List.of(row), ParquetWriteOptions.defaults())).containsExactly(row);

    try (ParquetFileReader reader = ParquetFileReader.open(new StoreInputFile(store, "t/part-0.parquet", -1))) {
      MessageType written = reader.getFooter().getFileMetaData().getSchema();
      assertThat(written.toString()).isEqualToIgnoringWhitespace("""
          message spark_schema {
            optional int64 a-b (TIMESTAMP(MICROS,true));
            optional group 1col (LIST) { repeated group list { optional int32 element (INTEGER(8,true)); } }
            optional group a b.c (MAP) {
              repeated group key_value { required binary key (STRING); optional int64 value (DECIMAL(10,2)); }
            }
            optional int32 a_b (INTEGER(16,true));
          }""");
      assertThat(reader.getFooter().getFileMetaData().getKeyValueMetaData()).doesNotContainKey("parquet.avro.schema");
    }
  }

  @Test
  void decimalsAtTheEdgesOfEachLayoutRoundTrip() {
    // INT32 up to 9 digits, INT64 up to 18, fixed bytes beyond: the largest and smallest unscaled values of each.
    StructType schema = StructType.empty().add("d9", DecimalType.of(9, 2)).add("d10", DecimalType.of(10, 0))
        .add("d18", DecimalType.of(18, 18)).add("d19", DecimalType.of(19, 3));
    List<Row> rows = List.of(
        Row.of(new BigDecimal("9999999.99"), new BigDecimal("9999999999"), new BigDecimal("0.999999999999999999"),
            new BigDecimal("9999999999999999.999")),
        Row.of(new BigDecimal("-9999999.99"), new BigDecimal("-9999999999"), new BigDecimal("-0.999999999999999999"),
            new BigDecimal("-9999999999999999.999")),
        Row.of(new BigDecimal("0.00"), BigDecimal.ZERO, new BigDecimal("0E-18"), new BigDecimal("0.001")),
        Row.of(null, null, null, null));

    assertThat(roundTrip(schema, rows, ParquetWriteOptions.defaults())).containsExactlyElementsOf(rows);
  }

  @Test
  void readsOnlyRequestedColumnsByNameAndMissingOnesAsNull() {
    roundTrip(ALL_TYPES, List.of(fullRow(3), nullRow()), ParquetWriteOptions.defaults());
    StructType readSchema = StructType.empty()
        .add("ghost", PrimitiveType.STRING)
        .add("L", PrimitiveType.LONG)
        .add("nested", StructType.empty().add("y", StructType.empty().add("z", PrimitiveType.STRING)).add("w", PrimitiveType.INTEGER));

    List<Row> read = ParquetDataReader.read(store, "t/part-0.parquet", -1, readSchema).toList();

    assertThat(read).containsExactly(
        Row.of(null, Long.MAX_VALUE - 3, Row.of(Row.of("zz3"), null)),
        Row.of(null, null, null));
  }

  @Test
  void selectedRowsAreReadWithTheirIndexesAcrossRowGroupsFlatOrNested() {
    List<Row> rows = new ArrayList<>();
    for (int n = 0; n < 3000; n++) {
      rows.add(n % 7 == 0 ? nullRow() : fullRow(n % 900));
    }
    // Small row groups, so that the selection skips whole groups and parts of them.
    WrittenFile written = ParquetDataWriter.write(store, "t/g.parquet", ALL_TYPES, rows.iterator(),
        ParquetWriteOptions.defaults().withRowGroupSize(64 * 1024));
    assertThat(ParquetFileReaderGroups.count(store, written)).isGreaterThan(3);
    java.util.BitSet selected = new java.util.BitSet();
    for (int n : new int[] {0, 1, 7, 500, 501, 1999, 2100, 2999}) {
      selected.set(n);
    }
    StructType flat = StructType.empty().add("s", PrimitiveType.STRING).add("ts", PrimitiveType.TIMESTAMP)
        .add("dec_mid", DecimalType.of(18, 6)).add("ghost", PrimitiveType.LONG)
        .add(StructField.of("required", PrimitiveType.LONG, false));
    // Sparse choices (read through row ranges) and a dense one (groups read whole, the other rows stepped over).
    java.util.BitSet dense = new java.util.BitSet();
    for (int n = 1; n < 3000; n += 3) {
      dense.set(n);
    }
    for (StructType schema : List.of(flat, ALL_TYPES)) {
      List<dev.sluice.table.internal.IndexedRow> read =
          ParquetDataReader.readSelected(store, written.key(), written.size(), schema, selected).toList();
      List<Row> all = ParquetDataReader.read(store, written.key(), written.size(), schema).toList();

      assertThat(read).extracting(dev.sluice.table.internal.IndexedRow::index)
          .containsExactly(0L, 1L, 7L, 500L, 501L, 1999L, 2100L, 2999L);
      assertThat(read).allSatisfy(r -> assertThat(r.row()).isEqualTo(all.get((int) r.index())));
      List<dev.sluice.table.internal.IndexedRow> denseRead =
          ParquetDataReader.readSelected(store, written.key(), written.size(), schema, dense).toList();
      assertThat(denseRead).extracting(dev.sluice.table.internal.IndexedRow::index)
          .containsExactlyElementsOf(dense.stream().mapToObj(Long::valueOf).toList());
      assertThat(denseRead).allSatisfy(r -> assertThat(r.row()).isEqualTo(all.get((int) r.index())));
    }
    assertThat(ParquetDataReader.read(store, written.key(), written.size(), ALL_TYPES).toList()).isEqualTo(rows);
    assertThat(ParquetDataReader.readSelected(store, written.key(), written.size(), flat, new java.util.BitSet())
        .toList()).isEmpty();
  }

  /** Row groups of a written file. */
  private static final class ParquetFileReaderGroups {
    static int count(ObjectStore store, WrittenFile written) {
      try (ParquetFileReader r = ParquetFileReader.open(new StoreInputFile(store, written.key(), written.size()))) {
        return r.getRowGroups().size();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  @Test
  void readingOnlyMissingColumnsGivesOneNullRowPerRecord() {
    roundTrip(ALL_TYPES, List.of(fullRow(1), fullRow(2)), ParquetWriteOptions.defaults());

    List<Row> read = ParquetDataReader.read(
        store, "t/part-0.parquet", -1, StructType.empty().add("ghost", PrimitiveType.INTEGER)).toList();

    assertThat(read).containsExactly(Row.of((Object) null), Row.of((Object) null));
  }

  @Test
  void aValueOfTheWrongJavaTypeIsRefusedByColumnAndTheWriterStaysUsable() {
    StructType schema = StructType.empty().add("id", PrimitiveType.LONG).add("n", NESTED);
    ParquetDataWriter writer = ParquetDataWriter.open(store, "t/w.parquet", schema, ParquetWriteOptions.defaults());

    assertThatThrownBy(() -> writer.write(Row.of(1L, Row.of("not an int", null))))
        .isInstanceOf(SchemaMismatchException.class)
        .hasMessageContaining("Column 'n.x' is integer and needs a Integer, but the row holds a java.lang.String");
    writer.write(Row.of(2L, Row.of(5, null)));
    WrittenFile written = writer.close();

    assertThat(ParquetDataReader.read(store, written.key(), written.size(), schema).toList())
        .containsExactly(Row.of(2L, Row.of(5, null)));
  }

  @Test
  void rowsThatAreViewsOfOtherRowsAreWrittenWithTheirOwnValuesAndStatistics() {
    StructType schema = StructType.empty().add("id", PrimitiveType.LONG).add("name", PrimitiveType.STRING);
    ParquetDataWriter writer = ParquetDataWriter.open(store, "t/views.parquet", schema, ParquetWriteOptions.defaults());
    List<Row> expected = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      Row base = Row.of("n-" + (4_999 - i), "ignored", (long) i);
      writer.write(new ProjectedRow(base, new int[] {2, 0})); // the writer reads views into one reused array
      expected.add(Row.of((long) i, "n-" + (4_999 - i)));
    }
    assertThatThrownBy(() -> writer.write(new ProjectedRow(Row.of(1L), new int[] {0})))
        .isInstanceOf(SchemaMismatchException.class).hasMessageContaining("has 1 values");
    WrittenFile written = writer.close();

    assertThat(ParquetDataReader.read(store, written.key(), written.size(), schema).toList())
        .containsExactlyElementsOf(expected);
    assertThat(written.stats()).contains("\"minValues\":{\"id\":0,\"name\":\"n-0\"}")
        .contains("\"maxValues\":{\"id\":4999,\"name\":\"n-999\"}");
  }

  @Test
  void nullInANonNullableColumnAndTooPreciseDecimalsAreRefused() {
    assertThatThrownBy(() -> roundTrip(ALL_TYPES, List.of(Row.of(new Object[ALL_TYPES.size()])), ParquetWriteOptions.defaults()))
        .isInstanceOf(SchemaMismatchException.class)
        .hasMessageContaining("Column 'required' is not nullable, but a row holds null");
    assertThat(store.status("t/part-0.parquet")).isEmpty();

    StructType decimal = StructType.empty().add("d", DecimalType.of(4, 2));
    assertThatThrownBy(() -> roundTrip(decimal, List.of(Row.of(new BigDecimal("1.234"))), ParquetWriteOptions.defaults()))
        .isInstanceOf(SchemaMismatchException.class)
        .hasMessageContaining("Column 'd' is decimal(4,2), but 1.234 has more than 2 fractional digits");
    assertThatThrownBy(() -> roundTrip(decimal, List.of(Row.of(new BigDecimal("123.4"))), ParquetWriteOptions.defaults()))
        .isInstanceOf(SchemaMismatchException.class)
        .hasMessageContaining("Column 'd' is decimal(4,2), but 123.4 has more than 4 digits");
  }

  @Test
  void mapsWithNonStringKeysAreRefusedNamingTheColumn() {
    StructType schema = StructType.empty()
        .add("s", StructType.empty().add("m", new MapType(PrimitiveType.INTEGER, PrimitiveType.STRING, true)));

    assertThatThrownBy(() -> ParquetDataWriter.open(store, "t/m.parquet", schema, ParquetWriteOptions.defaults()))
        .isInstanceOf(UnsupportedTableFeatureException.class)
        .hasMessageContaining("Column 's.m' is map<integer,string>: Sluice writes maps with string keys only");
  }

  @Test
  void abortLeavesNoObject() {
    ParquetDataWriter writer = ParquetDataWriter.open(store, "t/a.parquet", ALL_TYPES, ParquetWriteOptions.defaults());
    writer.write(fullRow(1));

    writer.abort();

    assertThat(store.status("t/a.parquet")).isEmpty();
    assertThat(Files.exists(dir.resolve("t/a.parquet"))).isFalse();
  }

  @Test
  void bytesWrittenGrowsWithRowsSoCallersCanRollFiles() {
    ParquetDataWriter writer = ParquetDataWriter.open(store, "t/r.parquet", ALL_TYPES, ParquetWriteOptions.defaults());
    long before = writer.bytesWritten();
    for (int n = 0; n < 2_000; n++) {
      writer.write(fullRow(n % 500));
    }
    long after = writer.bytesWritten();
    WrittenFile written = writer.close();

    assertThat(after).isGreaterThan(before + 10_000);
    assertThat(written.numRecords()).isEqualTo(2_000);
  }
}
