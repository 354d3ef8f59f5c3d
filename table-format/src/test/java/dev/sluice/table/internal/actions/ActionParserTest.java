package dev.sluice.table.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.exceptions.InvalidTableException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ActionParserTest {

  private static List<String> fixtureLines(String name) throws IOException {
    try (InputStream in = ActionParserTest.class.getResourceAsStream(name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
    }
  }

  @Test
  void sparkLinesRoundTripByteForByte() throws IOException {
    List<String> lines = fixtureLines("spark-lines-round-trip.ndjson");

    assertThat(lines).hasSize(12);
    for (String line : lines) {
      Action action = ActionParser.parseLine(line).orElseThrow();
      assertThat(ActionParser.toJson(action)).as(line).isEqualTo(line);
    }
  }

  @Test
  void nullPartitionValuesStayNull() throws IOException {
    String line = fixtureLines("spark-lines-round-trip.ndjson").get(10);

    AddFile add = (AddFile) ActionParser.parseLine(line).orElseThrow();

    // Spark's row of all-null partition values (directories named __HIVE_DEFAULT_PARTITION__)
    assertThat(add.path()).startsWith("as_int=__HIVE_DEFAULT_PARTITION__/");
    assertThat(add.partitionValues()).hasSize(12).containsEntry("as_int", null).containsEntry("as_string_lit_null", null);
  }

  @Test
  void deletionVectorIsKeptAsRawJson() throws IOException {
    AddFile add = (AddFile) ActionParser.parseLine(fixtureLines("spark-lines-round-trip.ndjson").get(11)).orElseThrow();

    assertThat(add.deletionVectorJson()).startsWith("{\"storageType\":\"u\"").contains("\"cardinality\":1");
  }

  @Test
  void unknownActionsAndFieldsAreIgnored() {
    assertThat(ActionParser.parseLine("{\"domainMetadata\":{\"domain\":\"d\",\"configuration\":\"{}\",\"removed\":false}}"))
        .isEmpty();
    assertThat(ActionParser.parseLine("")).isEmpty();

    Action txn = ActionParser.parseLine("{\"txn\":{\"appId\":\"a\",\"version\":3,\"futureField\":[1,2]}}").orElseThrow();

    assertThat(txn).isEqualTo(new SetTransaction("a", 3, null));
  }

  @Test
  void commitInfoKeepsUnmodelledFieldsInSparkOrder() {
    String line = "{\"commitInfo\":{\"inCommitTimestamp\":5,\"timestamp\":4,\"userId\":\"u\",\"operation\":\"WRITE\","
        + "\"operationParameters\":{\"mode\":\"Append\"},\"job\":{\"jobId\":\"j\"},\"readVersion\":1,"
        + "\"isBlindAppend\":true,\"operationMetrics\":{},\"engineInfo\":\"e\",\"txnId\":\"t\",\"custom\":7}}";

    CommitInfo info = (CommitInfo) ActionParser.parseLine(line).orElseThrow();

    assertThat(info.extra()).containsEntry("inCommitTimestamp", 5).containsEntry("userId", "u")
        .containsEntry("custom", 7).containsEntry("job", Map.of("jobId", "j"));
    assertThat(ActionParser.toJson(info)).isEqualTo(line);
  }

  @Test
  void nonStringOperationParametersBecomeTheirJsonText() {
    CommitInfo info = (CommitInfo) ActionParser.parseLine(
        "{\"commitInfo\":{\"operationParameters\":{\"auto\":false,\"description\":null,\"n\":3}}}").orElseThrow();

    assertThat(info.operationParameters()).isEqualTo(Map.of("auto", "false", "n", "3"));
  }

  @Test
  void metadataAlwaysWritesFormatPartitionColumnsAndConfiguration() {
    Metadata m = new Metadata("id-1", null, null, null, null, "{\"type\":\"struct\",\"fields\":[]}", null, null, null);

    assertThat(ActionParser.toJson(m)).isEqualTo("{\"metaData\":{\"id\":\"id-1\",\"format\":{\"provider\":\"parquet\","
        + "\"options\":{}},\"schemaString\":\"{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[]}\","
        + "\"partitionColumns\":[],\"configuration\":{}}}");
  }

  @Test
  void addWritesStatsAsAStringAndNullPartitionValuesAsJsonNull() {
    Map<String, String> pv = new LinkedHashMap<>();
    pv.put("day", null);
    AddFile add = AddFile.of("day=__HIVE_DEFAULT_PARTITION__/f.parquet", pv, 10, 20, "{\"numRecords\":1}");

    assertThat(ActionParser.toJson(add)).isEqualTo("{\"add\":{\"path\":\"day=__HIVE_DEFAULT_PARTITION__/f.parquet\","
        + "\"partitionValues\":{\"day\":null},\"size\":10,\"modificationTime\":20,\"dataChange\":true,"
        + "\"stats\":\"{\\\"numRecords\\\":1}\"}}");
  }

  @Test
  void serializedCommitPutsCommitInfoFirstAndEndsEveryLine() {
    List<Action> actions = List.of(Protocol.of(1, 2), new SetTransaction("app", 1, 9L),
        new CommitInfo(1L, "WRITE", null, null, null, true, null, null, "tx", null, null));

    String text = new String(ActionParser.serializeCommit(actions), StandardCharsets.UTF_8);

    assertThat(text).isEqualTo("{\"commitInfo\":{\"timestamp\":1,\"operation\":\"WRITE\",\"operationParameters\":{},"
        + "\"isBlindAppend\":true,\"operationMetrics\":{},\"txnId\":\"tx\"}}\n"
        + "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}\n"
        + "{\"txn\":{\"appId\":\"app\",\"version\":1,\"lastUpdated\":9}}\n");
    assertThat(ActionParser.parseCommit(text.getBytes(StandardCharsets.UTF_8), "x.json")).hasSize(3);
  }

  @Test
  void malformedLineNamesFileAndLine() {
    byte[] commit = "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}\n{\"add\":{\"path\":\n"
        .getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> ActionParser.parseCommit(commit, "file:/t/_delta_log/00000000000000000003.json"))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("Line 2 of the Delta log file file:/t/_delta_log/00000000000000000003.json")
        .hasMessageContaining("not valid JSON");
  }

  @Test
  void missingRequiredFieldNamesTheField() {
    byte[] commit = "{\"add\":{\"path\":\"a\",\"partitionValues\":{},\"modificationTime\":1,\"dataChange\":true}}\n"
        .getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> ActionParser.parseCommit(commit, "v.json"))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("Line 1 of the Delta log file v.json")
        .hasMessageContaining("the 'add' action has no numeric 'size'");
  }
}
