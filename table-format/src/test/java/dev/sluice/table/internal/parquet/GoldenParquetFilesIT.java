package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Reads the Parquet data files of Spark-written golden tables directly (every {@code *.parquet} under
 * the table folder, not through the log) and checks the decoded values. Expected values follow the
 * golden generator's conventions (row i holds i in every column) or, where the data is random, the
 * min/max statistics Spark wrote for the same file.
 */
class GoldenParquetFilesIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Path table(String name) {
    String shared = System.getProperty("sluice.shared.dir");
    assertThat(shared).as("system property sluice.shared.dir").isNotBlank();
    Path dir = Path.of(shared, "delta-golden", name);
    assertThat(dir).isDirectory();
    return dir;
  }

  /** The table's schema from the metaData action of its first commit. */
  private static StructType schema(Path table) {
    return StructType.fromJson(firstAction(table, "metaData").get("schemaString").asText());
  }

  private static JsonNode firstAction(Path table, String kind) {
    return actions(table, kind).get(0);
  }

  private static List<JsonNode> actions(Path table, String kind) {
    try (Stream<String> lines = Files.lines(table.resolve("_delta_log/00000000000000000000.json"))) {
      List<JsonNode> out = new ArrayList<>();
      for (String line : lines.collect(Collectors.toList())) {
        JsonNode node = JSON.readTree(line);
        if (node.has(kind)) {
          out.add(node.get(kind));
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> parquetKeys(Path table) {
    try (Stream<Path> files = Files.walk(table)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".parquet"))
          .filter(p -> !p.toString().contains("_delta_log"))
          .map(p -> table.relativize(p).toString().replace('\\', '/'))
          .sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Row> readAll(Path table, StructType readSchema) {
    LocalObjectStore store = new LocalObjectStore(table);
    List<Row> rows = new ArrayList<>();
    List<String> keys = parquetKeys(table);
    assertThat(keys).isNotEmpty();
    for (String key : keys) {
      rows.addAll(ParquetDataReader.read(store, key, -1, readSchema).toList());
    }
    return rows;
  }

  /** Rows sorted by the integer in column {@code ordinal}, nulls first. */
  private static List<Row> sortedBy(List<Row> rows, int ordinal) {
    return rows.stream()
        .sorted(Comparator.comparing((Row r) -> (Integer) r.get(ordinal), Comparator.nullsFirst(Comparator.naturalOrder())))
        .collect(Collectors.toList());
  }

  @Test
  void primitivesHoldIInEveryColumnPlusOneAllNullRow() {
    Path table = table("data-reader-primitives");

    List<Row> rows = sortedBy(readAll(table, schema(table)), 0);

    List<Row> expected = new ArrayList<>();
    expected.add(Row.of(new Object[10]));
    for (int i = 0; i < 10; i++) {
      expected.add(Row.of(i, (long) i, (byte) i, (short) i, i % 2 == 0, (float) i, (double) i, "" + i,
          new byte[] {(byte) i, (byte) i}, new BigDecimal(i)));
    }
    assertThat(rows).containsExactlyElementsOf(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"kernel-timestamp-INT96", "kernel-timestamp-TIMESTAMP_MILLIS", "kernel-timestamp-TIMESTAMP_MICROS"})
  void timestampEncodingsDecodeToTheSameInstants(String name) {
    Path table = table(name);

    // 'part' is a partition column: Spark keeps it out of the files, so it reads as null.
    List<Row> rows = sortedBy(readAll(table, schema(table)), 0);

    assertThat(rows).containsExactly(
        Row.of(0, null, Instant.parse("2020-02-01T08:09:10Z")),
        Row.of(1, null, Instant.parse("1999-01-01T09:00:00Z")),
        Row.of(2, null, Instant.parse("2000-01-01T09:00:00Z")),
        Row.of(3, null, Instant.parse("1969-01-01T00:00:00Z")),
        Row.of(4, null, null));
  }

  @Test
  void decimalsOfEveryPhysicalWidthMatchSparksOwnStatistics() {
    Path table = table("decimal-various-scale-precision");
    StructType schema = schema(table);
    ParsedStats stats = FileStats.parse(firstAction(table, "add").get("stats").asText(), schema);

    List<Row> rows = readAll(table, schema);

    // Three rows: all nulls, then one row of Spark's maxima and one of its minima. Columns without
    // statistics (decimal_7_6, decimal_25_24) are null in every row.
    Row max = Row.of(schema.fieldNames().stream().map(c -> stats.maxValues().get(c)).toArray());
    Row min = Row.of(schema.fieldNames().stream().map(c -> stats.minValues().get(c)).toArray());
    assertThat(rows).containsExactlyInAnyOrder(Row.of(new Object[schema.size()]), max, min);
    assertThat(stats.maxValues()).hasSize(schema.size() - 2);
    int d38x36 = schema.indexOf("decimal_38_36");
    assertThat((BigDecimal) max.get(d38x36)).isEqualTo(new BigDecimal("0.000000000000000003241836000000000000"));
    assertThat((BigDecimal) min.get(schema.indexOf("decimal_4_0"))).isEqualTo(new BigDecimal("-13"));
    assertThat((BigDecimal) min.get(schema.indexOf("decimal_12_6"))).isEqualTo(new BigDecimal("-0.000098"));
  }

  @Test
  void arraysOfEveryPrimitiveHoldI() {
    Path table = table("data-reader-array-primitives");

    List<Row> rows = readAll(table, schema(table)).stream()
        .sorted(Comparator.comparing(r -> (Integer) ((List<?>) r.get(0)).get(0)))
        .collect(Collectors.toList());

    assertThat(rows).hasSize(10);
    for (int i = 0; i < 10; i++) {
      Row row = rows.get(i);
      assertThat(row.get(0)).isEqualTo(List.of(i));
      assertThat(row.get(1)).isEqualTo(List.of((long) i));
      assertThat(row.get(2)).isEqualTo(List.of((byte) i));
      assertThat(row.get(3)).isEqualTo(List.of((short) i));
      assertThat(row.get(4)).isEqualTo(List.of(i % 2 == 0));
      assertThat(row.get(5)).isEqualTo(List.of((float) i));
      assertThat(row.get(6)).isEqualTo(List.of((double) i));
      assertThat(row.get(7)).isEqualTo(List.of("" + i));
      assertThat((List<?>) row.get(8)).singleElement().isEqualTo(new byte[] {(byte) i, (byte) i});
      assertThat(row.get(9)).isEqualTo(List.of(new BigDecimal(i)));
    }
  }

  @Test
  void mapsWithNonStringKeysAndNestedValuesHoldI() {
    Path table = table("data-reader-map");

    List<Row> rows = sortedBy(readAll(table, schema(table)), 0);

    List<Row> expected = IntStream.range(0, 10).mapToObj(i -> Row.of(
        i,
        Map.of(i, i),
        Map.of((long) i, (byte) i),
        Map.of((short) i, i % 2 == 0),
        Map.of((float) i, (double) i),
        Map.of("" + i, new BigDecimal(i)),
        Map.of(i, List.of(Row.of(i), Row.of(i), Row.of(i)))))
        .collect(Collectors.toList());
    assertThat(rows).containsExactlyElementsOf(expected);
  }

  @Test
  void nestedStructsHoldI() {
    Path table = table("data-reader-nested-struct");

    List<Row> rows = sortedBy(readAll(table, schema(table)), 1);

    List<Row> expected = IntStream.range(0, 10)
        .mapToObj(i -> Row.of(Row.of("" + i, "" + i, Row.of(i, (long) i)), i))
        .collect(Collectors.toList());
    assertThat(rows).containsExactlyElementsOf(expected);
  }

  @Test
  void aProjectionOfANestedStructDecodesOnlyTheRequestedLeaves() {
    Path table = table("data-reader-nested-struct");
    StructType readSchema = StructType.fromJson("""
        {"type":"struct","fields":[
          {"name":"B","type":"integer","nullable":true,"metadata":{}},
          {"name":"a","type":{"type":"struct","fields":[
            {"name":"ac","type":{"type":"struct","fields":[
              {"name":"acb","type":"long","nullable":true,"metadata":{}},
              {"name":"missing","type":"string","nullable":true,"metadata":{}}]},
             "nullable":true,"metadata":{}}]},
           "nullable":true,"metadata":{}}]}""");

    List<Row> rows = sortedBy(readAll(table, readSchema), 0);

    assertThat(rows).containsExactlyElementsOf(IntStream.range(0, 10)
        .mapToObj(i -> Row.of(i, Row.of(Row.of((long) i, null))))
        .collect(Collectors.toList()));
  }

  @Test
  void deeplyNestedListsMapsAndRecordsHoldI() {
    Path table = table("data-reader-array-complex-objects");

    List<Row> rows = sortedBy(readAll(table, schema(table)), 0);

    List<Row> expected = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      List<Integer> triple = List.of(i, i, i);
      List<List<List<Integer>>> cube = List.of(List.of(triple, triple), List.of(triple, triple));
      Map<String, Long> map = new HashMap<>();
      map.put("" + i, (long) i);
      expected.add(Row.of(i, cube, List.of(cube, cube), List.of(map, map), List.of(Row.of(i), Row.of(i), Row.of(i))));
    }
    assertThat(rows).containsExactlyElementsOf(expected);
  }

  @Test
  void statsWeComputeFromSparksFilesMatchTheStatsSparkWrote() {
    Path table = table("data-skipping-basic-stats-all-types");
    StructType schema = schema(table);
    LocalObjectStore store = new LocalObjectStore(table);
    List<JsonNode> adds = actions(table, "add");
    assertThat(adds).isNotEmpty();

    for (JsonNode add : adds) {
      FileStats ours = new FileStats(schema, ParquetWriteOptions.DEFAULT_NUM_INDEXED_COLS);
      ParquetDataReader.read(store, add.get("path").asText(), add.get("size").asLong(), schema).forEachRemaining(ours::add);

      ParsedStats spark = FileStats.parse(add.get("stats").asText(), schema);
      ParsedStats mine = FileStats.parse(ours.toJson(), schema);
      assertThat(mine).as("stats of %s", add.get("path").asText()).isEqualTo(spark);
    }
  }
}
