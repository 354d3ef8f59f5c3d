package dev.sluice.ingestion.state;

import static dev.sluice.ingestion.state.InMemoryStateStoreTest.SCHEMA;
import static dev.sluice.ingestion.state.InMemoryStateStoreTest.commit;
import static dev.sluice.ingestion.state.InMemoryStateStoreTest.commitEvictingVersions;
import static dev.sluice.ingestion.state.InMemoryStateStoreTest.contents;
import static dev.sluice.ingestion.state.InMemoryStateStoreTest.key;
import static dev.sluice.ingestion.state.InMemoryStateStoreTest.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.Location;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.testing.FailingObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The RocksDB provider through the SPI: changelogs, deduplicated SST snapshots, rebuilds from storage, purge. */
class RocksDbStateStoreTest {
  @TempDir
  Path dir;
  FailingObjectStore store;
  Location folder;
  final List<StateStoreFactory> factories = new ArrayList<>();
  final List<StateStoreProvider> providers = new ArrayList<>();

  @BeforeEach
  void setUp() {
    store = new FailingObjectStore(new LocalObjectStore(dir.resolve("remote")));
    folder = new Location(store, "ckpt/state/0/0");
  }

  @AfterEach
  void noLeaks() throws IOException {
    providers.forEach(StateStoreProvider::close);
    factories.forEach(StateStoreFactory::close);
    assertThat(store.openResourceCount()).isZero();
    try (Stream<Path> local = Files.list(dir.resolve("local"))) {
      assertThat(local.toList()).as("closed providers delete their local copies").isEmpty();
    }
  }

  /** A provider as a fresh process would open it: an empty local working directory of its own. */
  StateStoreProvider provider(int snapshotInterval) {
    StateStoreFactory f = StateStores.factory(StateStoreSettings.of(StateStoreType.ROCKSDB)
        .withLocalDir(dir.resolve("local")).withSnapshotInterval(snapshotInterval)
        .withRocksDbMemoryBytes(8 << 20));
    factories.add(f);
    StateStoreProvider p = f.create(folder, SCHEMA);
    providers.add(p);
    return p;
  }

  List<String> files() throws IOException {
    Path root = dir.resolve("remote/ckpt/state/0/0");
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).map(p -> root.relativize(p).toString()).sorted().toList();
    }
  }

  List<String> topFiles() throws IOException {
    return files().stream().filter(f -> !f.startsWith("SSTs/")).toList();
  }

  List<String> ssts() throws IOException {
    return files().stream().filter(f -> f.startsWith("SSTs/")).toList();
  }

  @Test
  void putGetRemoveIterateAndTheNextVersionSeesTheCommit() {
    StateStoreProvider p = provider(10);
    StateStore s = p.load(1);
    s.put(key("a"), value(1));
    s.put(key("b"), value(2));
    s.put(key("a"), value(3));
    s.put(key("c"), value(4));
    s.remove(key("c"));
    s.remove(key("nobody"));
    assertThat(s.get(key("a"))).isEqualTo(value(3));
    assertThat(s.get(key("c"))).isNull();
    assertThat(s.size()).isEqualTo(2);
    assertThat(contents(s)).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 3L, "b", 2L)));
    s.commit();

    StateStore s2 = p.load(2);
    Iterator<StateEntry> it = s2.iterator();
    while (it.hasNext()) {
      StateEntry e = it.next();
      if ((Long) e.value().get(0) < 3) {
        s2.remove(e.key());
      }
      s2.put(key("new"), value(9));
    }
    assertThat(s2.putIfAbsent(key("new"), value(1))).isFalse();
    assertThat(s2.putIfAbsent(key("z"), value(26))).isTrue();
    assertThat(s2.size()).isEqualTo(3);
    s2.commit();
    assertThat(s2.metrics()).satisfies(m -> {
      assertThat(m.numRowsTotal()).isEqualTo(3);
      assertThat(m.numRowsRemoved()).isEqualTo(1);
      assertThat(m.customMetrics()).containsKeys("rocksdbGetCount", "rocksdbPutCount", "rocksdbSstFileSize",
          "rocksdbMemUsage", "rocksdbBytesCopied", "rocksdbCommitFlushLatency", "rocksdbCommitCompactLatency",
          "rocksdbTotalBytesRead", "rocksdbTotalBytesWritten", "rocksdbCommitFileSyncLatencyMs");
      assertThat(m.customMetrics().get("rocksdbPutCount")).isEqualTo(3);
      assertThat(m.memoryUsedBytes()).isEqualTo(m.customMetrics().get("rocksdbMemUsage")).isPositive();
    });
    assertThat(contents(p.load(3))).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 3L, "new", 9L, "z", 26L)));
  }

  @Test
  void abortAndReplacedStoresLeaveThePreviousVersion() {
    StateStoreProvider p = provider(10);
    commit(p, 1, Map.of("a", 1L, "b", 2L));
    StateStore s2 = p.load(2);
    s2.put(key("a"), value(100));
    s2.remove(key("b"));
    s2.abort();
    assertThatThrownBy(() -> s2.get(key("a"))).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("was aborted");
    StateStore again = p.load(2);
    assertThat(contents(again)).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 1L, "b", 2L)));
    again.put(key("c"), value(3));
    StateStore replacing = p.load(2);
    assertThatThrownBy(again::commit).hasMessageContaining("was replaced by a later load()");
    assertThat(contents(replacing)).as("the replaced store's writes are gone")
        .containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 1L, "b", 2L)));
    replacing.commit();
    assertThat(contents(p.load(3))).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 1L, "b", 2L)));
  }

  @Test
  void snapshotsShareSstFilesAndAFreshProviderRebuildsFromStorage() throws IOException {
    StateStoreProvider p = provider(3);
    StateStore last = null;
    for (long v = 1; v <= 7; v++) {
      last = commit(p, v, Map.of("k" + v, v, "k" + (v - 1), -1L, "shared", v * 10));
    }
    assertThat(topFiles()).containsExactly("1.changelog", "2.changelog", "3.changelog", "3.zip", "4.changelog",
        "5.changelog", "6.changelog", "6.zip", "7.changelog");
    assertThat(last.metrics().customMetrics()).containsEntry("rocksdbBytesCopied", 0L);
    int sstsAfterTwoSnapshots = ssts().size();
    assertThat(sstsAfterTwoSnapshots).isEqualTo(2);

    StateStore v9 = provider(3).load(8);
    assertThat(contents(v9)).containsExactlyEntriesOf(new TreeMap<>(Map.of("k7", 7L, "shared", 70L)));
    assertThat(v9.size()).isEqualTo(2);
    v9.put(key("k8"), value(8));
    v9.commit();
  }

  @Test
  void aStateThatEvictsMostOfWhatItPutsIsSnapshottedBeforeItsChangelogsOutweighIt() throws IOException {
    commitEvictingVersions(provider(100), 3);
    assertThat(topFiles()).as("version 2's changelogs (18,000 records) outweigh the 6,000 keys: snapshot it although "
        + "the interval is 100; version 3's 12,000 records since then outweigh them again")
        .containsExactly("1.changelog", "2.changelog", "2.zip", "3.changelog", "3.zip");
    StateStore restarted = provider(100).load(4);
    assertThat(restarted.size()).isEqualTo(6_000);
    assertThat(restarted.get(key("v3-17"))).isEqualTo(value(3));
    assertThat(restarted.get(key("v2-17"))).isNull();
    restarted.abort();
  }

  @Test
  void theSecondSnapshotReusesUnchangedSstFiles() throws IOException {
    StateStoreProvider p = provider(2);
    commit(p, 1, Map.of("a", 1L));
    StateStore first = commit(p, 2, Map.of("b", 2L));
    assertThat(first.metrics().customMetrics()).containsEntry("rocksdbFilesCopied", 1L)
        .containsEntry("rocksdbFilesReused", 0L);
    commit(p, 3, Map.of("c", 3L));
    StateStore second = commit(p, 4, Map.of("d", 4L));
    assertThat(second.metrics().customMetrics()).containsEntry("rocksdbFilesCopied", 1L)
        .containsEntry("rocksdbFilesReused", 1L);
    assertThat(second.metrics().customMetrics().get("rocksdbBytesCopied")).isPositive();
    assertThat(ssts()).hasSize(2);
    assertThat(contents(provider(2).load(5))).hasSize(4);
  }

  @Test
  void purgeDeletesOldChangelogsSnapshotsAndTheSstFilesNoSnapshotLists() throws IOException {
    StateStoreProvider p = provider(2);
    for (long v = 1; v <= 6; v++) {
      commit(p, v, Map.of("k" + v, v, "k" + (v - 1), -1L));
    }
    p.purge(1);
    assertThat(topFiles()).as("no snapshot at or below 1: everything is needed").hasSize(9);
    p.purge(5);
    assertThat(topFiles()).containsExactly("4.changelog", "4.zip", "5.changelog", "6.changelog", "6.zip");
    List<String> kept = ssts();
    assertThat(kept).isNotEmpty();
    assertThat(contents(provider(2).load(7))).containsExactlyEntriesOf(Map.of("k6", 6L));
    assertThat(contents(provider(2).load(5))).containsExactlyEntriesOf(Map.of("k4", 4L));
    assertThatThrownBy(() -> provider(2).load(4)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("1.changelog is missing");
    // the provider still writes snapshots whose reused SSTs exist after the purge
    commit(p, 7, Map.of("k7", 7L));
    commit(p, 8, Map.of("k8", 8L));
    p.purge(8);
    assertThat(contents(provider(2).load(9))).containsOnlyKeys("k6", "k7", "k8");
  }

  @Test
  void aTornSnapshotUploadIsNeverSeenAndItsOrphanedFilesArePurged() throws IOException {
    StateStoreProvider p = provider(2);
    commit(p, 1, Map.of("a", 1L));
    store.failOverwritesMatching(k -> k.endsWith("2.zip"));
    commit(p, 2, Map.of("b", 2L));
    assertThat(topFiles()).as("SSTs uploaded, zip failed: no snapshot 2").containsExactly("1.changelog",
        "2.changelog");
    assertThat(ssts()).hasSize(1);
    store.reset();
    assertThat(contents(provider(2).load(3))).as("rebuilt from the changelogs")
        .containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 1L, "b", 2L)));
    commit(p, 3, Map.of("c", 3L));
    commit(p, 4, Map.of("d", 4L));
    commit(p, 5, Map.of("e", 5L));
    commit(p, 6, Map.of("f", 6L));
    p.purge(6);
    assertThat(topFiles()).containsExactly("6.changelog", "6.zip");
    assertThat(contents(provider(2).load(7))).hasSize(6);
  }

  @Test
  void aFailedChangelogUploadFailsTheCommitAndTheRetryStartsFromThePreviousVersion() {
    StateStoreProvider p = provider(10);
    commit(p, 1, Map.of("a", 1L));
    store.failOverwritesMatching(k -> k.endsWith("2.changelog"));
    StateStore s = p.load(2);
    s.put(key("b"), value(2));
    assertThatThrownBy(s::commit).hasMessageContaining("2.changelog");
    s.abort();
    store.reset();
    StateStore retry = p.load(2);
    assertThat(contents(retry)).containsExactlyEntriesOf(Map.of("a", 1L));
    retry.put(key("c"), value(3));
    retry.commit();
    assertThat(contents(provider(10).load(3))).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 1L, "c", 3L)));
  }

  @Test
  void reRunningAVersionDropsTheAbandonedFuture() throws IOException {
    StateStoreProvider first = provider(2);
    commit(first, 1, Map.of("a", 1L));
    commit(first, 2, Map.of("b", 2L));
    commit(first, 3, Map.of("c", 3L));
    StateStoreProvider second = provider(5);
    commit(second, 2, Map.of("b", 20L));
    assertThat(topFiles()).containsExactly("1.changelog", "2.changelog");
    assertThat(contents(provider(5).load(3))).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 1L, "b", 20L)));
  }

  @Test
  void removeWhereRemovesMatchingValues() {
    StateStoreProvider p = provider(10);
    commit(p, 1, Map.of("a", 1L, "b", 2L, "c", 3L));
    StateStore s = p.load(2);
    s.put(key("d"), value(4));
    List<Long> seen = new ArrayList<>();
    long removed = s.removeWhere(v -> {
      seen.add((Long) v.get(0));
      return (Long) v.get(0) % 2 == 0;
    });
    assertThat(seen).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
    assertThat(removed).isEqualTo(2);
    assertThat(s.size()).isEqualTo(2);
    s.commit();
    assertThat(contents(p.load(3))).containsOnlyKeys("a", "c");
  }
}
