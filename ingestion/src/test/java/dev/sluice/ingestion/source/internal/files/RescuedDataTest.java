package dev.sluice.ingestion.source.internal.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.internal.TestContexts;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import static dev.sluice.ingestion.source.internal.files.FileFormatsTest.declaringCorrupt;
import static dev.sluice.ingestion.source.internal.files.FileFormatsTest.settled;
import org.junit.jupiter.api.io.TempDir;

/** Option {@code rescuedDataColumn}: what doesn't fit the schema is kept as JSON instead of making the row corrupt. */
class RescuedDataTest {
  static final StructType PEOPLE = FileFormatsTest.PEOPLE;
  static final StructType NESTED = StructType.empty().add("id", PrimitiveType.LONG)
      .add("address", StructType.empty().add("zip", PrimitiveType.INTEGER));

  @TempDir Path tmp;
  Path in;

  @BeforeEach
  void setUp() throws IOException {
    in = Files.createDirectories(tmp.resolve("in"));
  }

  Source source(String format, Map<String, String> options, StructType schema) {
    return new FileSourceProvider().create(format, TestContexts.context(tmp, settled(options), declaringCorrupt(schema), in));
  }

  @Test
  void jsonUnknownFieldsAndWrongTypesAreRescuedAndTheRowIsKept() throws IOException {
    Files.writeString(in.resolve("p.json"), String.join("\n",
        "{\"name\":\"ann\",\"age\":31,\"born\":\"1993-02-01\"}",
        "{\"name\":\"cy\",\"age\":\"old\",\"born\":\"1990-01-01\",\"vip\":true,\"tags\":[1,2],\"gone\":null}",
        "{\"name\":\"bob\",\"age\":",
        "[1,2]") + "\n");
    Batch batch = FileFormatsTest.all(source("json", Map.of("rescuedDataColumn", "_rescued_data",
        "includeSourceColumn", "true"), PEOPLE));
    assertThat(batch.schema().fieldNames())
        .containsExactly("name", "age", "born", "_corrupt_record", "_corrupt_error", "_rescued_data", "_source");
    List<Row> rows = batch.rows();
    String uri = "file:" + in.resolve("p.json");
    assertThat(rows.get(0)).isEqualTo(Row.of("ann", 31L, LocalDate.of(1993, 2, 1), null, null, null, uri));
    assertThat(rows.get(1)).isEqualTo(Row.of("cy", null, LocalDate.of(1990, 1, 1), null, null,
        "{\"age\":\"old\",\"vip\":true,\"tags\":[1,2]}", uri));
    // lines that can't be parsed at all stay corrupt
    assertThat(rows.get(2).toArray()).containsExactly(null, null, null, "{\"name\":\"bob\",\"age\":",
        rows.get(2).get(4), null, uri);
    assertThat((String) rows.get(2).get(4)).startsWith("line 3: not valid JSON: ");
    assertThat(rows.get(3).get(4)).isEqualTo("line 4: not a JSON object but array");
  }

  @Test
  void nestedFieldsAreRescuedUnderTheirPath() throws IOException {
    Files.writeString(in.resolve("n.json"),
        "{\"id\":1,\"address\":{\"zip\":\"x\",\"street\":\"Main\"}}\n{\"id\":2,\"address\":{\"zip\":75001}}\n");
    List<Row> rows = FileFormatsTest.all(source("json", Map.of("rescuedDataColumn", "_rescued_data"), NESTED)).rows();
    assertThat(rows).containsExactly(
        Row.of(1L, Row.of((Object) null), null, null, "{\"address.zip\":\"x\",\"address.street\":\"Main\"}"),
        Row.of(2L, Row.of(75001), null, null, null));
  }

  @Test
  void withoutTypeMismatchesAWrongTypeKeepsTheRowCorruptButUnknownFieldsAreRescued() throws IOException {
    Files.writeString(in.resolve("p.json"), "{\"name\":\"ann\",\"age\":31,\"extra\":\"e\"}\n"
        + "{\"name\":\"cy\",\"age\":\"old\"}\n");
    List<Row> rows = FileFormatsTest.all(source("json", Map.of("rescuedDataColumn", "_rescued_data",
        "rescueTypeMismatches", "false"), PEOPLE)).rows();
    assertThat(rows.get(0)).isEqualTo(Row.of("ann", 31L, null, null, null, "{\"extra\":\"e\"}"));
    assertThat(rows.get(1)).isEqualTo(Row.of("cy", null, null, "{\"name\":\"cy\",\"age\":\"old\"}",
        "line 2: field 'age': cannot read '\"old\"' as long", null));
  }

  @Test
  void csvRescuesWrongTypesAndExtraFieldsByHeaderNameButNotMissingFields() throws IOException {
    Files.writeString(in.resolve("p.csv"), String.join("\n",
        "name,age,born,city",
        "ann,31,1993-02-01,Paris",
        "cy,old,1990-01-01",
        "x,1") + "\n");
    List<Row> rows = FileFormatsTest.all(source("csv", Map.of("header", "true",
        "rescuedDataColumn", "_rescued_data"), PEOPLE)).rows();
    assertThat(rows).containsExactly(
        Row.of("ann", 31L, LocalDate.of(1993, 2, 1), null, null, "{\"city\":\"Paris\"}"),
        Row.of("cy", null, LocalDate.of(1990, 1, 1), null, null, "{\"age\":\"old\"}"),
        Row.of("x", 1L, null, "x,1", "line 4: expected 3 fields [name, age, born] but found 2", null));
  }

  @Test
  void csvWithoutHeaderNamesExtraFieldsByPosition() throws IOException {
    Files.writeString(in.resolve("p.csv"), "ann,31,1993-02-01,Paris,\n");
    List<Row> rows = FileFormatsTest.all(source("csv", Map.of("rescuedDataColumn", "_rescued_data"), PEOPLE)).rows();
    assertThat(rows).containsExactly(Row.of("ann", 31L, LocalDate.of(1993, 2, 1), null, null, "{\"_c3\":\"Paris\"}"));
  }

  @Test
  void withoutTheOptionBehaviourIsUnchanged() throws IOException {
    Files.writeString(in.resolve("p.json"), "{\"name\":\"cy\",\"age\":\"old\",\"vip\":true}\n");
    Batch batch = FileFormatsTest.all(source("json", Map.of(), PEOPLE));
    assertThat(batch.schema().fieldNames()).containsExactly("name", "age", "born", "_corrupt_record", "_corrupt_error");
    assertThat(batch.rows()).containsExactly(Row.of("cy", null, null, "{\"name\":\"cy\",\"age\":\"old\",\"vip\":true}",
        "line 1: field 'age': cannot read '\"old\"' as long"));
  }

  @Test
  void badRescueSettingsAreRefused() {
    assertThatThrownBy(() -> source("json", Map.of("rescuedDataColumn", "age"), PEOPLE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Option rescuedDataColumn of the files source names 'age', which is already a column of the"
            + " source; choose another name, or rename the column in the schema");
    assertThatThrownBy(() -> source("json", Map.of("rescueTypeMismatches", "false"), PEOPLE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Option rescueTypeMismatches of the files source needs option rescuedDataColumn: set it (e.g. to"
            + " _rescued_data), or remove rescueTypeMismatches");
  }
}
