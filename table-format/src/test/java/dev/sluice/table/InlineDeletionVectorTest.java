package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.storage.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code sluice.deletionVectors.inlineMaxBytes} set, small deletion vectors go inline into the log action
 * ({@code storageType: i}), larger ones to a DV file; without it every DV goes to a file.
 */
class InlineDeletionVectorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;

  private Table table(String... properties) {
    Table table = Table.forPath(new LocalObjectStore(dir), "t");
    CreateTable create = table.create(Orders.SCHEMA).property("delta.enableDeletionVectors", "true")
        .property("sluice.deletionVectors.inlineMaxBytes", "64");
    for (int i = 0; i < properties.length; i += 2) {
      create.property(properties[i], properties[i + 1]);
    }
    create.commit();
    table.newAppend().rows(Orders.range(0, 3_000)).commit();
    return table;
  }

  private JsonNode addedDv(long version) throws IOException {
    for (String line : Files.readAllLines(dir.resolve("t/_delta_log/" + String.format("%020d.json", version)))) {
      JsonNode n = JSON.readTree(line);
      if (n.has("add")) {
        return n.get("add").path("deletionVector");
      }
    }
    throw new AssertionError("no add in version " + version);
  }

  private List<Path> dvFiles() throws IOException {
    try (var files = Files.list(dir.resolve("t"))) {
      return files.filter(p -> p.getFileName().toString().startsWith("deletion_vector_")).toList();
    }
  }

  private List<String> ids(Table table) {
    return TableWriteTest.rows(table).stream().map(r -> (String) r.get(0)).collect(Collectors.toList());
  }

  private static List<Object> everyThird(int from, int to) {
    List<Object> ids = new ArrayList<>();
    for (int i = from; i < to; i += 3) {
      ids.add(String.format("o%06d", i));
    }
    return ids;
  }

  @Test
  void aFewDeletedRowsAreKeptInlineInTheLogAndNoDvFileIsWritten() throws IOException {
    Table table = table();
    long v = table.newDelete().where(Predicate.in("id", List.of("o000002", "o000005", "o002999"))).commit().version();

    JsonNode dv = addedDv(v);
    assertThat(dv.path("storageType").asText()).isEqualTo("i");
    assertThat(dv.has("offset")).isFalse();
    assertThat(dv.path("cardinality").asLong()).isEqualTo(3);
    assertThat(dv.path("sizeInBytes").asInt()).isLessThanOrEqualTo(64);
    assertThat(dv.path("pathOrInlineDv").asText().length()).isEqualTo((dv.path("sizeInBytes").asInt() + 3) / 4 * 5);
    assertThat(dvFiles()).isEmpty();
    assertThat(ids(table)).hasSize(2_997).doesNotContain("o000002", "o000005", "o002999");
  }

  @Test
  void aDeletionVectorOverTheLimitGoesToAFile() throws IOException {
    Table table = table();
    long v = table.newDelete().where(Predicate.in("id", everyThird(0, 600))).commit().version();

    assertThat(addedDv(v).path("storageType").asText()).isEqualTo("u");
    assertThat(dvFiles()).hasSize(1);
    assertThat(ids(table)).hasSize(2_800);
  }

  @Test
  void withoutThePropertyEveryDvGoesToAFileAndTheLimitIsTheProperty() throws IOException {
    Table none = Table.forPath(new LocalObjectStore(dir), "t");
    none.create(Orders.SCHEMA).property("delta.enableDeletionVectors", "true").commit();
    none.newAppend().rows(Orders.range(0, 3_000)).commit();
    long v = none.newDelete().where(Predicate.eq("id", "o000002")).commit().version();
    assertThat(addedDv(v).path("storageType").asText()).isEqualTo("u");

    Table large = Table.forPath(new LocalObjectStore(dir.resolve("large")), "t");
    large.create(Orders.SCHEMA).property("delta.enableDeletionVectors", "true")
        .property("sluice.deletionVectors.inlineMaxBytes", "4096").commit();
    large.newAppend().rows(Orders.range(0, 3_000)).commit();
    long w = large.newDelete().where(Predicate.in("id", everyThird(0, 600))).commit().version();
    JsonNode dv = JSON.readTree(Files.readAllLines(dir.resolve("large/t/_delta_log/" + String.format("%020d.json", w)))
        .stream().filter(l -> l.startsWith("{\"add\"")).findFirst().orElseThrow()).path("add").path("deletionVector");
    assertThat(dv.path("storageType").asText()).isEqualTo("i");
    assertThat(TableWriteTest.rows(large)).hasSize(2_800);
  }

  @Test
  void inlineDeletionVectorsGrowAcrossCommitsAndSurviveACheckpoint() throws IOException {
    Table table = table();
    table.newDelete().where(Predicate.eq("id", "o000010")).commit();
    long v = table.newMerge().source(Orders.SCHEMA, List.of(Orders.order(20, "paid", 1, 9))).on("id")
        .whenMatchedUpdate().commit().version();
    assertThat(addedDv(v).path("storageType").asText()).isEqualTo("i");
    assertThat(addedDv(v).path("cardinality").asLong()).isEqualTo(2);

    table.checkpoint();
    String last = String.format("%020d.json", v);
    try (var logs = Files.list(dir.resolve("t/_delta_log"))) {
      // Only the checkpoint holds the DVs now (the commit of its own version stays: a log needs one).
      for (Path p : logs.filter(p -> p.toString().endsWith(".json") && !p.endsWith(last)).toList()) {
        Files.delete(p);
      }
    }
    Table reopened = Table.forPath(new LocalObjectStore(dir), "t");
    assertThat(ids(reopened)).hasSize(2_999).doesNotContain("o000010");
    assertThat(TableWriteTest.rows(reopened).stream().filter(r -> r.get(0).equals("o000020")).map(r -> r.get(4)))
        .containsExactly("paid");
  }
}
