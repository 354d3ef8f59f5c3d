package dev.sluice.ingestion.source.internal.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.source.MalformedRecordException;
import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.internal.TestContexts;
import dev.sluice.table.data.Row;
import dev.sluice.table.internal.parquet.ParquetDataWriter;
import dev.sluice.table.internal.parquet.ParquetWriteOptions;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileFormatsTest {
  static final StructType PEOPLE = StructType.empty()
      .add("name", PrimitiveType.STRING).add("age", PrimitiveType.LONG).add("born", PrimitiveType.DATE);

  @TempDir Path tmp;
  Path in;

  @BeforeEach
  void setUp() throws IOException {
    in = Files.createDirectories(tmp.resolve("in"));
  }

  Source source(String format, Map<String, String> options, StructType schema) {
    return new FileSourceProvider().create(format, TestContexts.context(tmp, settled(options), declaringCorrupt(schema), in));
  }

  /** The files are written just before reading: no settle time. */
  static Map<String, String> settled(Map<String, String> options) {
    Map<String, String> out = new java.util.HashMap<>(options);
    out.putIfAbsent("fileSettleTime", "0");
    return out;
  }

  /** Declares the corrupt columns, without which a declared schema keeps no malformed record (as Spark). */
  static StructType declaringCorrupt(StructType schema) {
    return schema == null ? null : schema.add("_corrupt_record", PrimitiveType.STRING)
        .add("_corrupt_error", PrimitiveType.STRING);
  }

  static Batch all(Source s) {
    return s.getBatch(Optional.empty(), s.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow());
  }

  @Test
  void malformedJsonLinesAreKeptWithTheirRawTextAndError() throws IOException {
    Files.writeString(in.resolve("p.json"), String.join("\n",
        "{\"name\":\"ann\",\"age\":31,\"born\":\"1993-02-01\"}",
        "{\"name\":\"bob\",\"age\":",
        "",
        "{\"name\":\"cy\",\"age\":\"old\",\"born\":\"1990-13-01\"}",
        "[1,2]") + "\n");
    Batch batch = all(source("json", Map.of(), PEOPLE));
    assertThat(batch.schema().fieldNames()).containsExactly("name", "age", "born", "_corrupt_record", "_corrupt_error");
    List<Row> rows = batch.rows();
    assertThat(rows).hasSize(4);
    assertThat(rows.get(0)).isEqualTo(Row.of("ann", 31L, LocalDate.of(1993, 2, 1), null, null));
    assertThat(rows.get(1).toArray()).startsWith(null, null, null, "{\"name\":\"bob\",\"age\":");
    assertThat((String) rows.get(1).get(4)).startsWith("line 2: not valid JSON: ");
    // partially filled: the fields that fit are kept
    assertThat(rows.get(2).toArray()).startsWith("cy", null, null, "{\"name\":\"cy\",\"age\":\"old\",\"born\":\"1990-13-01\"}");
    assertThat(rows.get(2).get(4)).isEqualTo("line 4: field 'age': cannot read '\"old\"' as long;"
        + " field 'born': cannot read '1990-13-01' as date");
    assertThat(rows.get(3).get(4)).isEqualTo("line 5: not a JSON object but array");
  }

  @Test
  void failFastNamesTheFileLineAndError() throws IOException {
    Files.writeString(in.resolve("p.json"), "{\"name\":\"ann\",\"age\":31}\n{\"name\":\"bob\",\"age\":true}\n");
    Source s = source("files", Map.of("format", "json", "mode", "FAILFAST"), PEOPLE);
    assertThatThrownBy(() -> all(s))
        .isInstanceOf(MalformedRecordException.class)
        .hasMessage("Malformed record in file:" + in.resolve("p.json") + " at line 2: field 'age': cannot read 'true'"
            + " as long. The source runs with mode=FAILFAST; fix or remove the file, or use mode=PERMISSIVE to keep"
            + " malformed records in the _corrupt_record and _corrupt_error columns");
  }

  @Test
  void jsonFillsNestedTypesTimestampsAndDecimals() throws IOException {
    StructType schema = StructType.empty()
        .add("at", PrimitiveType.TIMESTAMP)
        .add("price", DecimalType.of(6, 2))
        .add("tags", new ArrayType(PrimitiveType.STRING, true))
        .add("address", StructType.empty().add("city", PrimitiveType.STRING).add("zip", PrimitiveType.INTEGER))
        .add("scores", new MapType(PrimitiveType.STRING, PrimitiveType.DOUBLE, true));
    Files.writeString(in.resolve("n.json"), "{\"at\":\"2024-05-01T10:15:30.123456789+02:00\",\"price\":12.350,"
        + "\"tags\":[\"a\",\"b\"],\"address\":{\"city\":\"Oslo\",\"zip\":150},\"scores\":{\"x\":1.5,\"y\":2},\"extra\":1}\n"
        + "{\"at\":\"2024-05-01 08:00:00\",\"address\":{\"zip\":\"x\"}}\n");
    List<Row> rows = all(source("json", Map.of(), schema)).rows();
    assertThat(rows.get(0)).isEqualTo(Row.of(Instant.parse("2024-05-01T08:15:30.123456Z"), new BigDecimal("12.35"),
        List.of("a", "b"), Row.of("Oslo", 150), Map.of("x", 1.5, "y", 2.0), null, null));
    assertThat(rows.get(1).get(0)).isEqualTo(Instant.parse("2024-05-01T08:00:00Z"));
    assertThat(rows.get(1).get(3)).isEqualTo(Row.of(null, null));
    assertThat((String) rows.get(1).get(6)).isEqualTo("line 2: field 'address.zip': cannot read '\"x\"' as integer");
  }

  @Test
  void csvHonoursHeaderQuotesNullValueAndReportsWrongFieldCounts() throws IOException {
    Files.writeString(in.resolve("p.csv"), String.join("\n",
        "name;age;born",
        "\"Smith; J\";40;2000-01-01",
        "\"say \"\"hi\"\"\";NA;",
        "x;1",
        "y;notanumber;2000-01-02",
        "\"open;2;2000-01-03") + "\r\n");
    Source s = source("csv", Map.of("header", "true", "sep", ";", "nullValue", "NA"), PEOPLE);
    List<Row> rows = all(s).rows();
    assertThat(rows.get(0)).isEqualTo(Row.of("Smith; J", 40L, LocalDate.of(2000, 1, 1), null, null));
    assertThat(rows.get(1).toArray()).startsWith("say \"hi\"", null);
    assertThat(rows.get(1).get(4)).isEqualTo("line 3: field 'born': cannot read '' as date");
    assertThat(rows.get(2).toArray()).containsExactly("x", 1L, null, "x;1",
        "line 4: expected 3 fields [name, age, born] but found 2");
    assertThat(rows.get(3).toArray()).containsExactly("y", null, LocalDate.of(2000, 1, 2), "y;notanumber;2000-01-02",
        "line 5: field 'age': cannot read 'notanumber' as long");
    assertThat(rows.get(4).get(4)).isEqualTo("line 6: field 1: quote not closed");
  }

  @Test
  void includeSourceColumnAddsTheFileUriAfterTheDeclaredColumns() throws IOException {
    Files.writeString(in.resolve("a.csv"), "ann,3,\n");
    Batch batch = all(source("csv", Map.of("includeSourceColumn", "true"), PEOPLE));
    assertThat(batch.schema().fieldNames()).containsExactly("name", "age", "born", "_corrupt_record", "_corrupt_error", "_source");
    assertThat(batch.rows()).containsExactly(Row.of("ann", 3L, null, null, null, "file:" + in.resolve("a.csv")));
  }

  @Test
  void infersJsonAndCsvSchemasOnceAndKeepsThemAcrossRestarts() throws IOException {
    Files.writeString(in.resolve("a.json"), "{\"id\":1,\"ratio\":1,\"ok\":true,\"at\":\"2024-01-01T00:00:00Z\",\"n\":{\"k\":\"v\"}}\n"
        + "{\"id\":2,\"ratio\":0.5,\"tags\":[1,2]}\n");
    Source json = source("json", Map.of("inferSchema", "true"), null);
    assertThat(json.schema().toString()).isEqualTo("struct<id long, ratio double, ok boolean, at timestamp,"
        + " n struct<k string>, tags array<long>, _corrupt_record string, _corrupt_error string>");
    Files.delete(in.resolve("a.json"));
    Files.writeString(in.resolve("b.json"), "{\"other\":1}\n");
    assertThat(source("json", Map.of("inferSchema", "true"), null).schema()).isEqualTo(json.schema());

    Path csvTmp = Files.createDirectories(tmp.resolve("csv"));
    Files.writeString(Files.createDirectories(csvTmp.resolve("in")).resolve("a.csv"),
        "id,price,flag,when,label\n1,2.5,true,2024-01-01T10:00:00,x\n2,3,false,,7a\n");
    Source csv = new FileSourceProvider().create("csv", TestContexts.context(csvTmp,
        settled(Map.of("inferSchema", "true", "header", "true")), null, csvTmp.resolve("in")));
    assertThat(csv.schema().toString()).startsWith("struct<id long, price double, flag boolean, when timestamp, label string,");
    assertThat(all(csv).rows().get(1)).isEqualTo(Row.of(2L, 3.0, false, null, "7a", null, null));
  }

  @Test
  void aTextFormatWithoutSchemaOrInferenceIsRefused() throws IOException {
    assertThatThrownBy(() -> source("json", Map.of(), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("The json source at file:" + in + " needs a schema: declare one, or set option inferSchema=true"
            + " to infer it from the files present at start");
    assertThatThrownBy(() -> source("csv", Map.of("inferSchema", "true"), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot infer the schema of the csv source: file:" + in + " has no files yet");
  }

  @Test
  void parquetReadsItsSchemaFromTheFirstFileAndMarksUnreadableFiles() throws IOException {
    StructType schema = StructType.empty().add("id", PrimitiveType.LONG).add("name", PrimitiveType.STRING)
        .add("tags", new ArrayType(PrimitiveType.STRING, true));
    LocalObjectStore store = new LocalObjectStore(in);
    ParquetDataWriter.write(store, "a.parquet", schema,
        List.of(Row.of(1L, "x", List.of("t")), Row.of(2L, null, List.of())).iterator(), ParquetWriteOptions.defaults());
    Files.setLastModifiedTime(in.resolve("a.parquet"), java.nio.file.attribute.FileTime.fromMillis(1000));
    Files.writeString(in.resolve("b.parquet"), "not parquet at all");
    Source s = source("parquet", Map.of(), null);
    assertThat(s.schema().toString()).isEqualTo(
        "struct<id long, name string, tags array<string>, _corrupt_record string, _corrupt_error string>");
    List<Row> rows = all(s).rows();
    assertThat(rows.subList(0, 2)).containsExactly(Row.of(1L, "x", List.of("t"), null, null),
        Row.of(2L, null, List.of(), null, null));
    assertThat(rows.get(2).toArray()).startsWith(null, null, null, null);
    assertThat((String) rows.get(2).get(4)).startsWith("not a readable Parquet file: ");

    Source failFast = new FileSourceProvider().create("parquet",
        TestContexts.context(tmp.resolve("other"), settled(Map.of("mode", "failfast")), null, in));
    assertThatThrownBy(() -> all(failFast))
        .isInstanceOf(MalformedRecordException.class)
        .hasMessageStartingWith("Malformed record in file:" + in.resolve("b.parquet") + ": not a readable Parquet file");
  }

  @Test
  void unknownOptionsAndFormatsAreListed() {
    assertThatThrownBy(() -> source("json", Map.of("maxFilesPerTriger", "1"), PEOPLE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Unknown option 'maxFilesPerTriger' for source format 'json': accepted options are [")
        .hasMessageContaining("maxfilespertrigger")
        .hasMessageEndingWith("]; remove it or correct its spelling");
    assertThatThrownBy(() -> source("files", Map.of("format", "xml"), PEOPLE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Unknown file format 'xml': known formats are [csv, json, parquet]; fix the format name");
    assertThatThrownBy(() -> source("files", Map.of(), PEOPLE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("The files source needs option 'format': one of [csv, json, parquet]");
    assertThatThrownBy(() -> source("json", Map.of("mode", "DROPMALFORMED"), PEOPLE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Option 'mode' of source format 'json' is 'DROPMALFORMED', but it must be one of"
            + " [failfast, permissive]; fix the option's value");
  }
}
