package dev.sluice.table.internal.partition;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Checks partition values and path encodings against tables Spark wrote (read as plain JSON). */
class PartitionPathsGoldenIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Log(StructType schema, List<String> partitionColumns, List<JsonNode> adds, List<JsonNode> removes) {}

  private static Path golden(String table) {
    String shared = System.getProperty("sluice.shared.dir");
    assertThat(shared).as("system property sluice.shared.dir (run maven with -Dsluice.shared.dir=...)").isNotBlank();
    Path dir = Path.of(shared, "delta-golden", table);
    assertThat(dir.resolve("_delta_log")).as("golden table " + table).isDirectory();
    return dir;
  }

  private static Log readLog(Path table) throws IOException {
    StructType schema = null;
    List<String> partitionColumns = new ArrayList<>();
    List<JsonNode> adds = new ArrayList<>();
    List<JsonNode> removes = new ArrayList<>();
    List<Path> commits;
    try (Stream<Path> files = Files.list(table.resolve("_delta_log"))) {
      commits = files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
    }
    for (Path commit : commits) {
      for (String line : Files.readAllLines(commit)) {
        JsonNode action = JSON.readTree(line);
        if (action.has("metaData")) {
          schema = StructType.fromJson(action.get("metaData").get("schemaString").asText());
          partitionColumns.clear();
          action.get("metaData").get("partitionColumns").forEach(c -> partitionColumns.add(c.asText()));
        } else if (action.has("add")) {
          adds.add(action.get("add"));
        } else if (action.has("remove")) {
          removes.add(action.get("remove"));
        }
      }
    }
    return new Log(schema, partitionColumns, adds, removes);
  }

  private static Map<String, String> partitionValues(JsonNode add) {
    Map<String, String> out = new HashMap<>();
    add.get("partitionValues").fields()
        .forEachRemaining(e -> out.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
    return out;
  }

  private static LinkedHashMap<String, String> inOrder(List<String> columns, Map<String, String> values) {
    LinkedHashMap<String, String> out = new LinkedHashMap<>();
    columns.forEach(c -> out.put(c, values.get(c)));
    return out;
  }

  /** Decoding add.path gives a real file, under the Hive folder built from partitionValues. */
  private static void checkPaths(Path table, Log log) {
    assertThat(log.adds()).isNotEmpty();
    for (JsonNode add : log.adds()) {
      String path = add.get("path").asText();
      String key = PartitionValues.fromLogPath(path);
      assertThat(table.resolve(key)).as(path).isRegularFile();
      assertThat(PartitionValues.toLogPath(key)).isEqualTo(path);
      String folder = PartitionValues.partitionPath(inOrder(log.partitionColumns(), partitionValues(add)));
      assertThat(key).startsWith(folder + "/");
    }
  }

  @Test
  void partitionValuesOfTwelveTypes() throws IOException {
    Path table = golden("data-reader-partition-values");
    Log log = readLog(table);
    checkPaths(table, log);
    assertThat(log.adds()).hasSize(3);
    int nullFiles = 0;
    for (JsonNode add : log.adds()) {
      Map<String, String> values = partitionValues(add);
      Map<String, Object> typed = new HashMap<>();
      for (String c : log.partitionColumns()) {
        Object v = PartitionValues.decode(values.get(c), log.schema().field(c).orElseThrow().type());
        typed.put(c, v);
        if (v != null && !c.equals("as_timestamp")) {
          assertThat(PartitionValues.encode(v, log.schema().field(c).orElseThrow().type())).isEqualTo(values.get(c));
        }
      }
      if (values.get("as_int") == null) {
        nullFiles++;
        assertThat(typed.values()).containsOnlyNulls();
        continue;
      }
      int i = Integer.parseInt(values.get("as_int"));
      assertThat(typed.get("as_int")).isEqualTo(i);
      assertThat(typed.get("as_long")).isEqualTo((long) i);
      assertThat(typed.get("as_byte")).isEqualTo((byte) i);
      assertThat(typed.get("as_short")).isEqualTo((short) i);
      assertThat(typed.get("as_boolean")).isEqualTo(i == 0);
      assertThat(typed.get("as_float")).isEqualTo((float) i);
      assertThat(typed.get("as_double")).isEqualTo((double) i);
      assertThat(typed.get("as_string")).isEqualTo(Integer.toString(i));
      assertThat(typed.get("as_string_lit_null")).isEqualTo("null");
      assertThat(typed.get("as_date")).isEqualTo(LocalDate.of(2021, 9, 8));
      assertThat(typed.get("as_timestamp")).isEqualTo(Instant.parse("2021-09-08T11:11:11Z"));
      assertThat(typed.get("as_big_decimal")).isEqualTo(BigDecimal.valueOf(i));
    }
    assertThat(nullFiles).isEqualTo(1);
  }

  @Test
  void prunesTheGoldenPartitionsExactly() throws IOException {
    Log log = readLog(golden("data-reader-partition-values"));
    assertThat(matching(log, Predicate.eq("as_int", 1))).containsExactly("1");
    assertThat(matching(log, Predicate.isNull("as_timestamp"))).containsExactly((String) null);
    assertThat(matching(log, Predicate.eq("as_string_lit_null", "null"))).containsExactlyInAnyOrder("0", "1");
    assertThat(matching(log, Predicate.and(Predicate.eq("as_boolean", true), Predicate.eq("as_date", "2021-09-08"))))
        .containsExactly("0");
    assertThat(matching(log, Predicate.gt("as_timestamp", "2021-09-08T11:11:10Z"))).containsExactlyInAnyOrder("0", "1");
    assertThat(matching(log, Predicate.not(Predicate.in("as_big_decimal", List.of(0))))).containsExactly("1");
  }

  private static List<String> matching(Log log, Predicate predicate) {
    FilePruner pruner = FilePruner.of(predicate.bind(log.schema()), log.partitionColumns());
    List<String> out = new ArrayList<>();
    for (JsonNode add : log.adds()) {
      if (pruner.mightMatch(partitionValues(add), ColumnStats.NONE)) {
        out.add(partitionValues(add).get("as_int"));
      }
    }
    return out;
  }

  @Test
  void escapedCharactersAreEscapedTwice() throws IOException {
    Path table = golden("data-reader-escaped-chars");
    Log log = readLog(table);
    checkPaths(table, log);
    for (JsonNode add : log.adds()) {
      String value = partitionValues(add).get("_2");
      assertThat(value).matches("bar\\+%2[123]");
      assertThat(add.get("path").asText()).startsWith("_2=bar+%2525" + value.substring(5) + "/");
    }
  }

  @Test
  void isoTimestampPartitionValuesMatchTheirFolders() throws IOException {
    Path table = golden("kernel-timestamp-partition-col-ISO8601");
    Log log = readLog(table);
    assertThat(log.adds()).hasSize(2);
    for (JsonNode add : log.adds()) {
      String path = add.get("path").asText();
      String key = PartitionValues.fromLogPath(path);
      assertThat(table.resolve(key)).isRegularFile();
      assertThat(PartitionValues.toLogPath(key)).isEqualTo(path);
      String iso = partitionValues(add).get("ts");
      String folderValue = PartitionValues.unescapePathName(key.substring("ts=".length(), key.indexOf('/')));
      // Spark wrote the folder in the (UTC) session zone's spaced form, the value as ISO-8601 UTC.
      assertThat(PartitionValues.decode(folderValue, PrimitiveType.TIMESTAMP))
          .isEqualTo(PartitionValues.decode(iso, PrimitiveType.TIMESTAMP));
      assertThat(PartitionValues.encode(PartitionValues.decode(iso, PrimitiveType.TIMESTAMP), PrimitiveType.TIMESTAMP))
          .isEqualTo(iso);
    }
  }

  @Test
  void specialCharactersInFileNames() throws IOException {
    for (String name : List.of("log-replay-special-characters-a", "log-replay-special-characters-b")) {
      Log log = readLog(golden(name));
      assertThat(log.adds()).hasSize(1);
      String path = log.adds().get(0).get("path").asText();
      assertThat(PartitionValues.fromLogPath(path)).isEqualTo("special p@#h");
      assertThat(PartitionValues.toLogPath("special p@#h")).isEqualTo(path);
      for (JsonNode remove : log.removes()) {
        assertThat(PartitionValues.fromLogPath(remove.get("path").asText())).isEqualTo("special p@#h");
      }
    }
  }

  @Test
  void prunesByGoldenStatistics() throws IOException {
    Log log = readLog(golden("data-skipping-partition-and-data-column"));
    FilePruner pruner = FilePruner.of(
        Predicate.and(Predicate.eq("part", 1), Predicate.eq("id", 1)).bind(log.schema()), log.partitionColumns());
    List<JsonNode> kept = new ArrayList<>();
    for (JsonNode add : log.adds()) {
      JsonNode stats = JSON.readTree(add.get("stats").asText());
      if (pruner.mightMatch(partitionValues(add), intStats(stats))) {
        kept.add(stats);
      }
    }
    assertThat(kept).hasSize(1);
    assertThat(kept.get(0).get("minValues").get("part").asInt()).isEqualTo(1);
    assertThat(kept.get(0).get("minValues").get("id").asInt()).isEqualTo(1);
  }

  private static ColumnStats intStats(JsonNode stats) {
    Map<String, Object> min = new HashMap<>();
    Map<String, Object> max = new HashMap<>();
    Map<String, Long> nulls = new HashMap<>();
    stats.path("minValues").fields().forEachRemaining(e -> min.put(e.getKey(), e.getValue().asInt()));
    stats.path("maxValues").fields().forEachRemaining(e -> max.put(e.getKey(), e.getValue().asInt()));
    stats.path("nullCount").fields().forEachRemaining(e -> nulls.put(e.getKey(), e.getValue().asLong()));
    return ColumnStats.of(stats.get("numRecords").asLong(), min, max, nulls);
  }
}
