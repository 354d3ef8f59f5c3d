package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.DuplicateMergeKeyException;
import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.exceptions.SchemaMismatchException;
import dev.sluice.table.exceptions.TableAlreadyExistsException;
import dev.sluice.table.exceptions.TableNotFoundException;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableWriteTest {
  @TempDir Path dir;
  LocalObjectStore store;
  Table table;

  @BeforeEach
  void setUp() {
    store = new LocalObjectStore(dir);
    table = Table.forPath(store, "silver/orders");
  }

  static List<Row> rows(Table t) {
    try (CloseableIterator<Row> it = t.latestSnapshot().scan().build().rows()) {
      return it.toList().stream().sorted(Comparator.comparing(r -> (String) r.get(0))).collect(Collectors.toList());
    }
  }

  @Test
  void createAppendAndReadBack() {
    assertThat(table.exists()).isFalse();
    assertThatThrownBy(() -> table.latestSnapshot()).isInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("silver/orders");
    assertThat(table.create(Orders.SCHEMA).commit().version()).isZero();
    CommitResult r = table.newAppend().rows(Orders.range(0, 100)).commit();
    assertThat(r.version()).isEqualTo(1);
    assertThat(r.metric("numOutputRows")).isEqualTo(100);
    Snapshot s = table.latestSnapshot();
    assertThat(s.version()).isEqualTo(1);
    assertThat(s.schema()).isEqualTo(Orders.SCHEMA);
    assertThat(s.minReaderVersion()).isEqualTo(1);
    assertThat(s.minWriterVersion()).isEqualTo(2);
    assertThat(s.numRecords()).hasValue(100);
    assertThat(rows(table)).containsExactlyElementsOf(Orders.range(0, 100));
    HistoryEntry last = table.history(10).get(0);
    assertThat(last.operation()).isEqualTo("WRITE");
    assertThat(last.isBlindAppend()).isTrue();
    assertThat(last.operationParameters()).containsEntry("mode", "Append");
    assertThat(table.history(10)).hasSize(2);
  }

  @Test
  void createTwiceFails() {
    table.create(Orders.SCHEMA).commit();
    assertThatThrownBy(() -> table.create(Orders.SCHEMA).commit()).isInstanceOf(TableAlreadyExistsException.class)
        .hasMessageContaining("already exists");
    assertThat(table.create(Orders.SCHEMA).ifNotExists().commit().skipped()).isTrue();
  }

  @Test
  void partitionedTableWritesHiveFoldersAndPrunes() {
    StructType schema = Orders.SCHEMA.add("day", PrimitiveType.DATE);
    table.create(schema).partitionBy("day").commit();
    List<Row> data = new java.util.ArrayList<>();
    for (int i = 0; i < 30; i++) {
      Row o = Orders.order(i, "open", i, 0);
      Object[] v = java.util.Arrays.copyOf(o.toArray(), 7);
      v[6] = java.time.LocalDate.of(2026, 11, 1 + i % 3);
      data.add(Row.of(v));
    }
    table.newAppend().rows(data).commit();
    Snapshot s = table.latestSnapshot();
    assertThat(s.files()).hasSize(3);
    assertThat(s.files()).allSatisfy(f -> assertThat(f.key()).matches("silver/orders/day=2026-11-0[123]/part-.*\\.parquet"));
    Scan scan = s.scan().filter(Predicate.eq("day", java.time.LocalDate.of(2026, 11, 2))).build();
    assertThat(scan.files()).hasSize(1);
    assertThat(scan.rows().toList()).hasSize(10).allSatisfy(r -> assertThat(r.get(6)).isEqualTo(java.time.LocalDate.of(2026, 11, 2)));
  }

  @Test
  void scanProjectsAndFiltersRows() {
    table.create(Orders.SCHEMA).commit();
    table.newAppend().rows(Orders.range(0, 50)).commit();
    Scan scan = table.latestSnapshot().scan().select("id", "amount").filter(Predicate.lt("amount", 3.0)).build();
    assertThat(scan.schema().fieldNames()).containsExactly("id", "amount");
    assertThat(scan.rows().toList()).containsExactly(Row.of("o000000", 0.0), Row.of("o000001", 1.5));
    assertThatThrownBy(() -> table.latestSnapshot().scan().select("nope").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nope").hasMessageContaining("customer");
  }

  @Test
  void schemaEnforcementNamesColumnAndTypes() {
    table.create(Orders.SCHEMA).commit();
    StructType wrong = StructType.of(StructField.of("id", PrimitiveType.STRING, false), StructField.of("amount", PrimitiveType.STRING));
    assertThatThrownBy(() -> table.newAppend().schema(wrong).rows(List.of(Row.of("x", "1"))).commit())
        .isInstanceOf(SchemaMismatchException.class)
        .hasMessageContaining("'amount'").hasMessageContaining("double").hasMessageContaining("string");
    StructType extra = Orders.SCHEMA.add("channel", PrimitiveType.STRING);
    Row withChannel = Row.of("o1", "c", Orders.T0, 1.0, "open", Orders.T0, "web");
    assertThatThrownBy(() -> table.newAppend().schema(extra).rows(List.of(withChannel)).commit())
        .isInstanceOf(SchemaMismatchException.class).hasMessageContaining("channel").hasMessageContaining("mergeSchema");
    table.newAppend().schema(extra).rows(List.of(withChannel)).mergeSchema(true).commit();
    assertThat(table.latestSnapshot().schema().fieldNames()).endsWith("channel");
    assertThat(rows(table)).containsExactly(withChannel);
  }

  @Test
  void txnMakesAppendsIdempotent() {
    table.create(Orders.SCHEMA).commit();
    assertThat(table.newAppend().txn("query-1", 0).rows(Orders.range(0, 10)).commit().skipped()).isFalse();
    assertThat(table.newAppend().txn("query-1", 0).rows(Orders.range(0, 10)).commit().skipped()).isTrue();
    assertThat(table.newAppend().txn("query-1", 1).rows(Orders.range(10, 20)).commit().skipped()).isFalse();
    assertThat(table.transactionVersion("query-1")).hasValue(1);
    assertThat(table.transactionVersion("other")).isEmpty();
    assertThat(rows(table)).hasSize(20);
  }

  @Test
  void overwriteWholeTableAndPartition() {
    StructType schema = StructType.of(StructField.of("k", PrimitiveType.STRING), StructField.of("p", PrimitiveType.INTEGER));
    table.create(schema).partitionBy("p").commit();
    table.newAppend().rows(List.of(Row.of("a", 1), Row.of("b", 2))).commit();
    table.newOverwrite().where(Predicate.eq("p", 1)).rows(List.of(Row.of("c", 1))).commit();
    assertThat(rows(table)).containsExactly(Row.of("b", 2), Row.of("c", 1));
    assertThatThrownBy(() -> table.newOverwrite().where(Predicate.eq("p", 1)).rows(List.of(Row.of("d", 2))).commit())
        .isInstanceOf(InvalidOperationException.class).hasMessageContaining("does not match the overwrite condition");
    assertThatThrownBy(() -> table.newOverwrite().where(Predicate.eq("k", "a")).rows(List.of()).commit())
        .isInstanceOf(InvalidOperationException.class).hasMessageContaining("not a partition column");
    table.newOverwrite().rows(List.of(Row.of("z", 9))).commit();
    assertThat(rows(table)).containsExactly(Row.of("z", 9));
  }

  @Test
  void deleteRewritesOnlyAffectedFiles() {
    table.create(Orders.SCHEMA).commit();
    table.newAppend().rows(Orders.range(0, 10)).commit();
    table.newAppend().rows(Orders.range(10, 20)).commit();
    CommitResult r = table.newDelete().where(Predicate.lt("amount", 3.0)).commit();
    assertThat(r.metric("numDeletedRows")).isEqualTo(2);
    assertThat(r.metric("numRemovedFiles")).isEqualTo(1);
    assertThat(r.metric("numCopiedRows")).isEqualTo(8);
    assertThat(rows(table)).containsExactlyElementsOf(Orders.range(2, 20));
    assertThat(table.history(1).get(0).operation()).isEqualTo("DELETE");
  }

  @Test
  void appendOnlyTableRefusesDeletes() {
    table.create(Orders.SCHEMA).property("delta.appendOnly", "true").commit();
    table.newAppend().rows(Orders.range(0, 3)).commit();
    assertThatThrownBy(() -> table.newDelete().where(Predicate.eq("id", "o000001")).commit())
        .isInstanceOf(InvalidOperationException.class).hasMessageContaining("append-only");
    assertThat(rows(table)).hasSize(3);
  }

  @Test
  void mergeUpdatesInsertsAndDeletesByKey() {
    table.create(Orders.SCHEMA).commit();
    table.newAppend().rows(Orders.range(0, 10)).commit();
    List<Row> source = List.of(
        Orders.order(1, "shipped", 99, 50),
        Orders.order(2, "cancelled", 0, 50),
        Orders.order(3, "stale", 1, -5),
        Orders.order(42, "open", 7, 50));
    CommitResult r = table.newMerge().source(Orders.SCHEMA, source).on("id")
        .whenMatchedDelete((MergeRows m) -> "cancelled".equals(m.source("status")), "source.status = 'cancelled'")
        .whenMatchedUpdate(MergeCondition.sourceGreaterThanTarget("updated_at"), "source.updated_at > target.updated_at")
        .whenNotMatchedInsert()
        .commit();
    assertThat(r.metric("numTargetRowsUpdated")).isEqualTo(1);
    assertThat(r.metric("numTargetRowsDeleted")).isEqualTo(1);
    assertThat(r.metric("numTargetRowsInserted")).isEqualTo(1);
    Map<String, Row> byId = new HashMap<>();
    rows(table).forEach(x -> byId.put((String) x.get(0), x));
    assertThat(byId).hasSize(10);
    assertThat(byId.get("o000001").get(4)).isEqualTo("shipped");
    assertThat(byId).doesNotContainKey("o000002");
    assertThat(byId.get("o000003").get(4)).isEqualTo("open");
    assertThat(byId.get("o000042").get(4)).isEqualTo("open");
    assertThat(table.history(1).get(0).operation()).isEqualTo("MERGE");
  }

  @Test
  void mergeRejectsDuplicateKeysUnlessLatestBy() {
    table.create(Orders.SCHEMA).commit();
    List<Row> source = List.of(Orders.order(1, "a", 1, 10), Orders.order(1, "b", 1, 20), Orders.order(1, "c", 1, 5));
    assertThatThrownBy(() -> table.newMerge().source(Orders.SCHEMA, source).on("id").whenNotMatchedInsert().commit())
        .isInstanceOf(DuplicateMergeKeyException.class).hasMessageContaining("o000001").hasMessageContaining("latest-by");
    table.newMerge().source(Orders.SCHEMA, source).on("id").latestBy("updated_at").whenMatchedUpdate().whenNotMatchedInsert().commit();
    assertThat(rows(table)).singleElement().satisfies(x -> assertThat(x.get(4)).isEqualTo("b"));
  }

  @Test
  void mergeSkipsFilesThatCannotHoldSourceKeys() {
    table.create(Orders.SCHEMA).commit();
    for (int f = 0; f < 5; f++) {
      table.newAppend().rows(Orders.range(f * 100, f * 100 + 100)).commit();
    }
    CommitResult r = table.newMerge().source(Orders.SCHEMA, List.of(Orders.order(250, "x", 1, 99))).on("id")
        .whenMatchedUpdate().commit();
    assertThat(r.metric("numTargetFilesScanned")).isEqualTo(1);
    assertThat(r.metric("numTargetFilesRemoved")).isEqualTo(1);
    assertThat(r.metric("numTargetRowsCopied")).isEqualTo(99);
    assertThat(rows(table)).hasSize(500);
  }

  @Test
  void changeDataFeedRecordsInsertsUpdatesAndDeletes() {
    table.create(Orders.SCHEMA).enableChangeDataFeed().commit();
    Snapshot created = table.latestSnapshot();
    assertThat(created.minWriterVersion()).isEqualTo(7);
    table.newAppend().rows(Orders.range(0, 3)).commit();
    table.newMerge().source(Orders.SCHEMA, List.of(Orders.order(1, "shipped", 5, 9), Orders.order(7, "open", 1, 9)))
        .on("id").whenMatchedUpdate().whenNotMatchedInsert().commit();
    table.newDelete().where(Predicate.eq("id", "o000000")).commit();
    ChangeFeed feed = table.changes(1, 3);
    int type = feed.schema().indexOf("_change_type");
    int version = feed.schema().indexOf("_commit_version");
    List<String> changes = feed.rows().toList().stream()
        .map(r -> r.get(version) + ":" + r.get(0) + ":" + r.get(type))
        .sorted().collect(Collectors.toList());
    assertThat(changes).containsExactly(
        "1:o000000:insert", "1:o000001:insert", "1:o000002:insert",
        "2:o000001:update_postimage", "2:o000001:update_preimage", "2:o000007:insert",
        "3:o000000:delete");
    assertThat(store.list("silver/orders/_change_data/").toList()).isNotEmpty();
  }

  @Test
  void changeFeedNeedsTheProperty() {
    table.create(Orders.SCHEMA).commit();
    assertThatThrownBy(() -> table.changes(0, 0)).isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining("enableChangeDataFeed");
  }

  @Test
  void timeTravelByVersion() {
    table.create(Orders.SCHEMA).commit();
    table.newAppend().rows(Orders.range(0, 5)).commit();
    table.newAppend().rows(Orders.range(5, 8)).commit();
    assertThat(table.snapshotAt(1).scan().build().rows().toList()).hasSize(5);
    assertThat(table.snapshotAt(2).scan().build().rows().toList()).hasSize(8);
  }

  @Test
  void checkpointEveryTenCommitsAndReloadMatches() throws Exception {
    table.create(Orders.SCHEMA).commit();
    for (int i = 0; i < 24; i++) {
      table.newAppend().rows(Orders.range(i * 2, i * 2 + 2)).commit();
    }
    Path log = dir.resolve("silver/orders/_delta_log");
    assertThat(log.resolve("00000000000000000010.checkpoint.parquet")).exists();
    assertThat(log.resolve("00000000000000000020.checkpoint.parquet")).exists();
    assertThat(Files.readString(log.resolve("_last_checkpoint"))).contains("\"version\":20").doesNotContain("parts");
    assertThat(rows(Table.forPath(new LocalObjectStore(dir), "silver/orders"))).containsExactlyElementsOf(Orders.range(0, 48));
  }
}
