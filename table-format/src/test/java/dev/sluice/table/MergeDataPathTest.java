package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.actions.AddCdcFile;
import dev.sluice.table.internal.log.DeltaLog;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a MERGE reads and writes files: change files only when rows change, no leftovers, pruning, parallel files. */
class MergeDataPathTest {
  @TempDir Path dir;
  LocalObjectStore store;
  Table table;

  @BeforeEach
  void setUp() {
    store = new LocalObjectStore(dir);
    table = Table.forPath(store, "silver/orders");
  }

  private List<String> changes(long from, long to) {
    ChangeFeed feed = table.changes(from, to);
    int type = feed.schema().indexOf("_change_type");
    int version = feed.schema().indexOf("_commit_version");
    try (CloseableIterator<Row> it = feed.rows()) {
      return it.toList().stream().map(r -> r.get(version) + ":" + r.get(0) + ":" + r.get(type)).sorted()
          .collect(Collectors.toList());
    }
  }

  private boolean hasCdcActions(long version) {
    List<Action> actions = new DeltaLog(store, "silver/orders").readCommit(version);
    return actions.stream().anyMatch(a -> a instanceof AddCdcFile);
  }

  private List<String> parquetFiles() {
    return store.list("silver/orders/").toList().stream().map(ObjectStatus::key)
        .filter(k -> k.endsWith(".parquet") && !k.contains("/_delta_log/")).toList();
  }

  @Test
  void anInsertOnlyMergeWritesNoChangeFilesAndItsAddsReadAsInserts() {
    table.create(Orders.SCHEMA).enableChangeDataFeed().commit();
    long v = table.newMerge().source(Orders.SCHEMA, Orders.range(0, 3)).on("id").whenMatchedUpdate()
        .whenNotMatchedInsert().commit().version();

    assertThat(hasCdcActions(v)).isFalse();
    assertThat(store.list("silver/orders/_change_data/").toList()).isEmpty();
    assertThat(changes(v, v)).containsExactly(v + ":o000000:insert", v + ":o000001:insert", v + ":o000002:insert");
  }

  @Test
  void aMergeThatUpdatesWritesItsInsertsToTheChangeFilesToo() {
    table.create(Orders.SCHEMA).enableChangeDataFeed().commit();
    table.newAppend().rows(Orders.range(0, 2)).commit();
    long v = table.newMerge().source(Orders.SCHEMA, List.of(Orders.order(1, "paid", 2, 9), Orders.order(5, "open", 1, 9)))
        .on("id").whenMatchedUpdate().whenNotMatchedInsert().commit().version();

    assertThat(hasCdcActions(v)).isTrue();
    assertThat(changes(v, v)).containsExactly(
        v + ":o000001:update_postimage", v + ":o000001:update_preimage", v + ":o000005:insert");
  }

  @Test
  void theInsertsOfAMergeThatUpdatesReadBackWholeFromTheChangeFilesOfAPartitionedTable() {
    table.create(Orders.SCHEMA).partitionBy("status").enableChangeDataFeed().commit();
    table.newAppend().rows(Orders.range(0, 10)).commit();
    List<Row> source = new ArrayList<>();
    source.add(Orders.order(3, "paid", 30, 9));
    for (int i = 100; i < 3100; i++) {
      source.add(Orders.order(i, i % 3 == 0 ? "open" : i % 3 == 1 ? "paid" : "shipped", i * 0.25, i));
    }
    long v = table.newMerge().source(Orders.SCHEMA, source).on("id").whenMatchedUpdate().whenNotMatchedInsert()
        .commit().version();

    ChangeFeed feed = table.changes(v, v);
    int type = feed.schema().indexOf("_change_type");
    List<Row> inserted = new ArrayList<>();
    List<String> others = new ArrayList<>();
    try (CloseableIterator<Row> it = feed.rows()) {
      it.forEachRemaining(r -> {
        Object[] values = java.util.Arrays.copyOf(r.toArray(), Orders.SCHEMA.size());
        if (r.get(type).equals("insert")) {
          inserted.add(Row.of(values));
        } else {
          others.add(r.get(0) + ":" + r.get(4) + ":" + r.get(type));
        }
      });
    }
    assertThat(inserted).containsExactlyInAnyOrderElementsOf(source.subList(1, source.size()));
    assertThat(others).containsExactlyInAnyOrder("o000003:open:update_preimage", "o000003:paid:update_postimage");
    // The inserts' change files sit in their partitions' folders, as the feed's readers expect.
    assertThat(store.list("silver/orders/_change_data/").toList().stream().map(ObjectStatus::key)
        .filter(k -> k.contains("/status=shipped/cdc-"))).isNotEmpty();
  }

  @Test
  void aScannedFileWithoutChangesIsKeptAndItsSpeculativeRewriteDeleted() {
    table.create(Orders.SCHEMA).commit();
    table.newAppend().rows(List.of(Orders.order(0, "open", 1, 0), Orders.order(10, "open", 1, 0))).commit();
    List<String> before = parquetFiles();

    // o000005 lies within the file's [min, max] of id, so the file is read, but no row of it matches.
    CommitResult r = table.newMerge().source(Orders.SCHEMA, List.of(Orders.order(5, "x", 1, 9))).on("id")
        .whenMatchedUpdate().commit();

    assertThat(r.metric("numTargetFilesScanned")).isEqualTo(1);
    assertThat(r.metric("numTargetFilesRemoved")).isZero();
    assertThat(r.metric("numTargetFilesAdded")).isZero();
    assertThat(parquetFiles()).containsExactlyInAnyOrderElementsOf(before);
  }

  @Test
  void manyFilesAreMergedAndOnlyChangedOnesRewritten() {
    table.create(Orders.SCHEMA).enableChangeDataFeed().commit();
    for (int f = 0; f < 6; f++) {
      table.newAppend().rows(Orders.range(f * 100, f * 100 + 100)).commit();
    }
    List<Row> source = new ArrayList<>();
    for (int f = 0; f < 6; f += 2) {
      source.add(Orders.order(f * 100 + 7, "paid", 1, 99));
    }
    for (int i = 1000; i < 1100; i++) {
      source.add(Orders.order(i, "new", 1, 99));
    }
    CommitResult r = table.newMerge().source(Orders.SCHEMA, source).on("id").whenMatchedUpdate().whenNotMatchedInsert()
        .commit();

    assertThat(r.metric("numTargetRowsUpdated")).isEqualTo(3);
    assertThat(r.metric("numTargetRowsInserted")).isEqualTo(100);
    assertThat(r.metric("numTargetFilesRemoved")).isEqualTo(3);
    assertThat(r.metric("numTargetRowsCopied")).isEqualTo(297);
    List<Row> all = TableWriteTest.rows(table);
    assertThat(all).hasSize(700);
    assertThat(all.stream().filter(x -> "paid".equals(x.get(4))).map(x -> x.get(0)))
        .containsExactlyInAnyOrder("o000007", "o000207", "o000407");
    assertThat(changes(r.version(), r.version())).hasSize(3 * 2 + 100);
  }

  @Test
  void aLargeKeySetPrunesFilesWhoseRangeHoldsNoneOfItsKeys() {
    table.create(Orders.SCHEMA).commit();
    for (int f = 0; f < 4; f++) {
      table.newAppend().rows(Orders.range(f * 1000, f * 1000 + 1000)).commit();
    }
    // Keys spread over files 0 and 3 only: files 1 and 2 lie strictly between them, so the key range alone keeps them.
    List<Row> source = new ArrayList<>();
    for (int i = 0; i < 1000; i += 2) {
      source.add(Orders.order(i, "x", 1, 9));
    }
    for (int i = 3001; i < 4000; i += 2) {
      source.add(Orders.order(i, "x", 1, 9));
    }
    CommitResult r = table.newMerge().source(Orders.SCHEMA, source).on("id").whenMatchedUpdate().commit();

    assertThat(r.metric("numTargetFilesScanned")).isEqualTo(2);
    assertThat(r.metric("numTargetRowsUpdated")).isEqualTo(1000);
  }

  @Test
  void aLargeInListMatchesRowsByHashedValue() {
    table.create(Orders.SCHEMA).commit();
    table.newAppend().rows(Orders.range(0, 200)).commit();
    List<Object> ids = new ArrayList<>();
    for (int i = 0; i < 200; i += 3) {
      ids.add(String.format("o%06d", i));
    }
    ids.add("nope");
    try (CloseableIterator<Row> it = table.latestSnapshot().scan().filter(Predicate.in("id", ids)).build().rows()) {
      assertThat(it.toList()).hasSize(67);
    }
  }
}
