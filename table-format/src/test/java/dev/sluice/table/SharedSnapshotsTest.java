package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.testing.FailingObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Table objects of one store share what they read of a log, and never trust it beyond what the log lists. */
class SharedSnapshotsTest {
  @TempDir Path dir;

  @Test
  void aSecondTableObjectReadsOnlyTheCommitsSinceTheFirstOneRead() {
    FailingObjectStore store = new FailingObjectStore(new LocalObjectStore(dir));
    Table first = Table.forPath(store, "t");
    first.create(Orders.SCHEMA).property("delta.checkpointInterval", "4").commit();
    for (int i = 0; i < 5; i++) {
      first.newAppend().rows(Orders.range(i * 10, i * 10 + 2)).commit();
    }
    assertThat(first.latestSnapshot().version()).isEqualTo(5);
    Table other = Table.forPath(store, "t");
    other.newAppend().rows(Orders.range(100, 101)).commit();

    store.reset();
    List<String> read = new ArrayList<>();
    store.failReadsMatching(k -> read.add(k) && false);
    Snapshot seen = Table.forPath(store, "t").latestSnapshot();

    assertThat(seen.version()).isEqualTo(6);
    assertThat(seen.files()).hasSize(6);
    // Commit 6 on top of the state read at version 5, not the checkpoint of version 4 and commits 5 and 6.
    assertThat(read).as("objects read")
        .containsExactly("t/_delta_log/_last_checkpoint", "t/_delta_log/00000000000000000006.json");
  }

  @Test
  void aTableDeletedAndCreatedAgainAtTheSamePathIsReadAfresh() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    Table old = Table.forPath(store, "t");
    old.create(Orders.SCHEMA).commit();
    old.newAppend().rows(Orders.range(0, 3)).commit();
    old.newAppend().rows(Orders.range(3, 6)).commit();
    assertThat(old.latestSnapshot().version()).isEqualTo(2);
    deleteTree(dir.resolve("t"));
    Thread.sleep(5);   // a new commit file of the same name gets another modification time

    // Created again by another process (its own store object): this process still remembers the old table.
    Table again = Table.forPath(new LocalObjectStore(dir), "t");
    again.create(Orders.SCHEMA).commit();
    again.newAppend().rows(Orders.range(50, 51)).commit();
    again.newAppend().rows(Orders.range(51, 52)).commit();
    again.newAppend().rows(Orders.range(52, 53)).commit();

    Snapshot read = Table.forPath(store, "t").latestSnapshot();
    List<Row> rows = new ArrayList<>(read.scan().build().rows().toList());

    assertThat(read.version()).isEqualTo(3);
    assertThat(rows).containsExactlyInAnyOrderElementsOf(Orders.range(50, 53));
  }

  private static void deleteTree(Path root) throws Exception {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
