package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.ConcurrentAppendException;
import dev.sluice.table.exceptions.ConcurrentDeleteReadException;
import dev.sluice.table.exceptions.ConcurrentTransactionException;
import dev.sluice.table.exceptions.MetadataChangedException;
import dev.sluice.table.exceptions.ProtocolChangedException;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.PrimitiveType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableConcurrencyTest {
  @TempDir Path dir;
  LocalObjectStore local;
  HookedObjectStore hooked;

  @BeforeEach
  void setUp() {
    local = new LocalObjectStore(dir);
    hooked = new HookedObjectStore(local);
  }

  /** 8 writers × 10 appends: every append lands exactly once and versions are contiguous. */
  static void eightThreadsAppend(ObjectStore store, int perThread) throws Exception {
    Table table = Table.forPath(store, "t");
    table.create(Orders.SCHEMA).commit();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<List<Long>>> futures = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int thread = t;
      futures.add(pool.submit(() -> {
        List<Long> versions = new ArrayList<>();
        Table mine = Table.forPath(store, "t");
        for (int i = 0; i < perThread; i++) {
          int base = (thread * perThread + i) * 3;
          versions.add(mine.newAppend().rows(Orders.range(base, base + 3)).commit().version());
        }
        return versions;
      }));
    }
    List<Long> all = new ArrayList<>();
    for (Future<List<Long>> f : futures) {
      all.addAll(f.get());
    }
    pool.shutdown();
    int appends = 8 * perThread;
    assertThat(all).hasSize(appends).doesNotHaveDuplicates();
    assertThat(all.stream().sorted().collect(Collectors.toList()))
        .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, appends).boxed().collect(Collectors.toList()));
    List<Row> rows = TableWriteTest.rows(table);
    assertThat(rows).containsExactlyElementsOf(Orders.range(0, appends * 3));
    assertThat(table.latestVersion()).hasValue(appends);
  }

  @Test
  void eightThreadsAppendLocally() throws Exception {
    eightThreadsAppend(local, 10);
  }

  @Test
  void mergeLosingToAConcurrentMergeOnTheSameFileFailsWithoutRetries() {
    Table table = Table.forPath(hooked, "t");
    table.create(Orders.SCHEMA).commit();
    table.newAppend().rows(Orders.range(0, 10)).commit();
    Table other = Table.forPath(local, "t");
    hooked.beforeNextCommit(key -> other.newMerge().source(Orders.SCHEMA, List.of(Orders.order(3, "paid", 1, 5)))
        .on("id").whenMatchedUpdate().commit());
    assertThatThrownBy(() -> table.newMerge().source(Orders.SCHEMA, List.of(Orders.order(4, "shipped", 1, 5)))
        .on("id").whenMatchedUpdate().retries(0).commit())
        .isInstanceOf(ConcurrentAppendException.class)
        .hasMessageContaining("MERGE (version 2)").hasMessageContaining("Retry");
    Map<String, Object> status = statusById(table);
    assertThat(status).containsEntry("o000003", "paid").containsEntry("o000004", "open");
    // the loser's data files were cleaned up: only live files remain besides the log
    long dataFiles = local.list("t/").toList().stream().filter(s -> s.key().endsWith(".parquet") && !s.key().contains("_delta_log")).count();
    assertThat(dataFiles).isEqualTo(table.latestSnapshot().files().size() + 1 /* file removed by the winner, kept for time travel */);
  }

  @Test
  void mergeRetriesAfterAConcurrentMergeAndKeepsBothChanges() {
    Table table = Table.forPath(hooked, "t");
    table.create(Orders.SCHEMA).commit();
    table.newAppend().rows(Orders.range(0, 10)).commit();
    Table other = Table.forPath(local, "t");
    hooked.beforeNextCommit(key -> other.newMerge().source(Orders.SCHEMA, List.of(Orders.order(3, "paid", 1, 5)))
        .on("id").whenMatchedUpdate().commit());
    CommitResult r = table.newMerge().source(Orders.SCHEMA, List.of(Orders.order(4, "shipped", 1, 5)))
        .on("id").whenMatchedUpdate().commit();
    assertThat(r.version()).isEqualTo(3);
    assertThat(statusById(table)).containsEntry("o000003", "paid").containsEntry("o000004", "shipped");
  }

  @Test
  void deleteLosingToAConcurrentDeleteOfTheSameFile() {
    Table table = Table.forPath(hooked, "t");
    table.create(Orders.SCHEMA).commit();
    table.newAppend().rows(Orders.range(0, 10)).commit();
    Table other = Table.forPath(local, "t");
    // The winner deletes every row of the file the loser reads: a removal without a matching add.
    hooked.beforeNextCommit(key -> other.newDelete().where(dev.sluice.table.expressions.Predicate.ge("id", "o000000")).commit());
    assertThatThrownBy(() -> table.newDelete().where(dev.sluice.table.expressions.Predicate.eq("id", "o000002")).retries(0).commit())
        .isInstanceOf(ConcurrentDeleteReadException.class).hasMessageContaining("removed");
  }

  @Test
  void blindAppendPassesAConcurrentMerge() {
    Table table = Table.forPath(hooked, "t");
    table.create(Orders.SCHEMA).commit();
    table.newAppend().rows(Orders.range(0, 10)).commit();
    Table other = Table.forPath(local, "t");
    hooked.beforeNextCommit(key -> other.newMerge().source(Orders.SCHEMA, List.of(Orders.order(3, "paid", 1, 5)))
        .on("id").whenMatchedUpdate().commit());
    assertThat(table.newAppend().rows(Orders.range(10, 12)).commit().version()).isEqualTo(3);
    assertThat(TableWriteTest.rows(table)).hasSize(12);
  }

  @Test
  void appendFailsWhenSchemaChangedConcurrently() {
    Table table = Table.forPath(hooked, "t");
    table.create(Orders.SCHEMA).commit();
    Table other = Table.forPath(local, "t");
    hooked.beforeNextCommit(key -> other.newAppend().schema(Orders.SCHEMA.add("extra", PrimitiveType.LONG))
        .rows(List.of()).mergeSchema(true).commit());
    assertThatThrownBy(() -> table.newAppend().rows(Orders.range(0, 2)).retries(0).commit())
        .isInstanceOf(MetadataChangedException.class).hasMessageContaining("metadata");
  }

  @Test
  void twoInstancesOfOneQueryConflictOnTheirTxn() {
    Table table = Table.forPath(hooked, "t");
    table.create(Orders.SCHEMA).commit();
    Table other = Table.forPath(local, "t");
    hooked.beforeNextCommit(key -> other.newAppend().txn("query", 0).rows(Orders.range(0, 2)).commit());
    assertThatThrownBy(() -> table.newAppend().txn("query", 0).rows(Orders.range(0, 2)).commit())
        .isInstanceOf(ConcurrentTransactionException.class).hasMessageContaining("appId=query");
    assertThat(TableWriteTest.rows(table)).hasSize(2);
  }

  @Test
  void concurrentCreateLosesWithProtocolChanged() {
    Table table = Table.forPath(hooked, "t");
    Table other = Table.forPath(local, "t");
    hooked.beforeNextCommit(key -> other.create(Orders.SCHEMA).commit());
    assertThatThrownBy(() -> table.create(Orders.SCHEMA).commit())
        .isInstanceOf(ProtocolChangedException.class).hasMessageContaining("created the table first");
  }

  private static Map<String, Object> statusById(Table table) {
    return TableWriteTest.rows(table).stream().collect(Collectors.toMap(r -> (String) r.get(0), r -> r.get(4)));
  }
}
