package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.testing.FailingObjectStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A failing object store never leaves a table unreadable or a commit half-visible or doubled. */
class TableFaultInjectionTest {
  @TempDir Path dir;
  FailingObjectStore store;
  Table table;

  @BeforeEach
  void setUp() {
    store = new FailingObjectStore(new LocalObjectStore(dir));
    table = Table.forPath(store, "t");
    table.create(Orders.SCHEMA).commit();
  }

  @AfterEach
  void noLeakedStreams() {
    assertThat(store.openResourceCount()).as("streams and listings left open").isZero();
  }

  private Table fresh() {
    return Table.forPath(new LocalObjectStore(dir), "t");
  }

  @Test
  void failedCommitCreateIsRetriedAndLandsOnce() {
    store.failNthCreate(1);
    CommitResult r = table.newAppend().rows(Orders.range(0, 5)).commit();
    assertThat(r.version()).isEqualTo(1);
    assertThat(fresh().latestVersion()).hasValue(1);
    assertThat(TableWriteTest.rows(fresh())).containsExactlyElementsOf(Orders.range(0, 5));
  }

  @Test
  void timeoutAfterWritingTheCommitIsResolvedByReadingItBack() {
    store.timeoutAfterNthCreate(1);
    CommitResult r = table.newMerge().source(Orders.SCHEMA, Orders.range(0, 5)).on("id").whenNotMatchedInsert().commit();
    assertThat(r.version()).isEqualTo(1);
    // exactly one commit: the retry recognised its own txnId instead of committing again
    assertThat(fresh().latestVersion()).hasValue(1);
    assertThat(TableWriteTest.rows(fresh())).containsExactlyElementsOf(Orders.range(0, 5));
  }

  @Test
  void timeoutOfAnIdempotentAppendDoesNotDuplicateRows() {
    store.timeoutAfterNthCreate(1);
    table.newAppend().txn("q", 0).rows(Orders.range(0, 5)).commit();
    // the caller, unsure, retries the same batch: it is skipped
    assertThat(table.newAppend().txn("q", 0).rows(Orders.range(0, 5)).commit().skipped()).isTrue();
    assertThat(TableWriteTest.rows(fresh())).containsExactlyElementsOf(Orders.range(0, 5));
  }

  @Test
  void failingLogReadsFailLoudlyAndLeaveTheTableReadable() {
    table.newAppend().rows(Orders.range(0, 5)).commit();
    store.failReadsMatching(key -> key.endsWith("00000000000000000001.json"));
    assertThatThrownBy(() -> Table.forPath(store, "t").latestSnapshot()).isInstanceOf(StorageException.class)
        .hasMessageContaining("00000000000000000001.json");
    store.reset();
    assertThat(TableWriteTest.rows(Table.forPath(store, "t"))).hasSize(5);
  }

  @Test
  void failingCheckpointDoesNotFailTheCommit() {
    store.failOverwritesMatching(key -> key.endsWith("_last_checkpoint"));
    for (int i = 0; i < 11; i++) {
      table.newAppend().rows(Orders.range(i, i + 1)).commit();
    }
    assertThat(fresh().latestVersion()).hasValue(11);
    assertThat(TableWriteTest.rows(fresh())).containsExactlyElementsOf(Orders.range(0, 11));
  }

  @Test
  void failedDeleteLeavesTheTableAsItWas() {
    table.newAppend().rows(Orders.range(0, 5)).commit();
    // every attempt of the DELETE's commit fails: nothing becomes visible and its new files are removed
    store.failCreatesMatching(key -> key.contains("_delta_log/"));
    assertThatThrownBy(() -> table.newDelete().where(Predicate.eq("id", "o000001")).commit())
        .isInstanceOf(StorageException.class);
    store.reset();
    assertThat(fresh().latestVersion()).hasValue(1);
    assertThat(TableWriteTest.rows(fresh())).containsExactlyElementsOf(Orders.range(0, 5));
    long parquetFiles = new LocalObjectStore(dir).list("t/").toList().stream()
        .filter(s -> s.key().endsWith(".parquet") && !s.key().contains("_delta_log")).count();
    assertThat(parquetFiles).isEqualTo(1);
  }

  @Test
  void orphanDataFilesOfACrashedWriterAreInvisible() {
    table.newAppend().rows(Orders.range(0, 3)).commit();
    // a writer that died after writing its data file but before committing
    new LocalObjectStore(dir).overwrite("t/part-00000-orphan.c000.snappy.parquet", new byte[] {1, 2, 3});
    assertThat(TableWriteTest.rows(fresh())).containsExactlyElementsOf(Orders.range(0, 3));
    assertThat(fresh().latestSnapshot().files()).hasSize(1);
    assertThat(List.of(fresh().latestVersion().getAsLong())).containsExactly(1L);
  }
}
