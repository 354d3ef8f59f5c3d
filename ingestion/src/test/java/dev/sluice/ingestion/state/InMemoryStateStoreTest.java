package dev.sluice.ingestion.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.Location;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.testing.FailingObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InMemoryStateStoreTest {
  static final StateSchema SCHEMA = new StateSchema(
      StructType.empty().add("user", PrimitiveType.STRING),
      StructType.empty().add("count", PrimitiveType.LONG).add("last", PrimitiveType.STRING));

  @TempDir
  Path dir;
  FailingObjectStore store;
  Location folder;
  List<StateStoreProvider> providers = new ArrayList<>();

  @BeforeEach
  void setUp() {
    store = new FailingObjectStore(new LocalObjectStore(dir));
    folder = new Location(store, "ckpt/state/0/0");
  }

  @AfterEach
  void noLeaks() {
    providers.forEach(StateStoreProvider::close);
    assertThat(store.openResourceCount()).isZero();
  }

  StateStoreProvider provider(int snapshotInterval) {
    StateStoreProvider p = StateStores.inMemory(folder, SCHEMA, snapshotInterval);
    providers.add(p);
    return p;
  }

  static Row key(String user) {
    return Row.of(user);
  }

  static Row value(long count) {
    return Row.of(count, "v" + count);
  }

  /** Commits {@code version} with the given puts (count ≥ 0) and removes (count < 0). */
  static StateStore commit(StateStoreProvider p, long version, Map<String, Long> changes) {
    StateStore s = p.load(version);
    changes.forEach((k, v) -> {
      if (v < 0) {
        s.remove(key(k));
      } else {
        s.put(key(k), value(v));
      }
    });
    s.commit();
    return s;
  }

  static Map<String, Long> contents(StateStore s) {
    Map<String, Long> out = new TreeMap<>();
    s.iterator().forEachRemaining(e -> out.put((String) e.key().get(0), (Long) e.value().get(0)));
    return out;
  }

  List<String> files() {
    return store.delegate().list("ckpt/state/0/0/").toList().stream().map(ObjectStatus::name).sorted().toList();
  }

  @Test
  void putGetRemoveAndIterateWithinABatch() {
    StateStore s = provider(10).load(1);
    assertThat(s.version()).isEqualTo(1);
    assertThat(s.get(key("a"))).isNull();
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
  }

  @Test
  void theNextVersionSeesTheCommittedStateAndRemovesWhileIterating() {
    StateStoreProvider p = provider(10);
    commit(p, 1, Map.of("a", 1L, "b", 2L, "c", 3L));
    StateStore s2 = p.load(2);
    assertThat(contents(s2)).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 1L, "b", 2L, "c", 3L)));

    // watermark-style eviction: remove and re-put while iterating the store
    Iterator<StateEntry> it = s2.iterator();
    while (it.hasNext()) {
      StateEntry e = it.next();
      if ((Long) e.value().get(0) < 3) {
        s2.remove(e.key());
      }
      s2.put(key("new"), value(9));
    }
    s2.put(key("c"), value(30));
    s2.put(key("temporary"), value(5));
    s2.remove(key("temporary"));
    assertThat(s2.size()).isEqualTo(2);
    s2.commit();

    assertThat(s2.metrics()).satisfies(m -> {
      assertThat(m.numRowsTotal()).isEqualTo(2);
      assertThat(m.numRowsUpdated()).isEqualTo(2);
      assertThat(m.numRowsRemoved()).isEqualTo(2);
      assertThat(m.memoryUsedBytes()).isBetween(2 * 100L, 2 * 400L);
      assertThat(m.commitTimeMs()).isNotNegative();
    });
    assertThat(contents(p.load(3))).containsExactlyEntriesOf(new TreeMap<>(Map.of("c", 30L, "new", 9L)));
  }

  @Test
  void abortRestoresThePreviousVersionAndStoresCantBeUsedAfterwards() {
    StateStoreProvider p = provider(10);
    commit(p, 1, Map.of("a", 1L, "b", 2L));
    StateStore s2 = p.load(2);
    s2.put(key("a"), value(100));
    s2.remove(key("b"));
    s2.put(key("z"), value(26));
    s2.abort();
    s2.abort();

    assertThatThrownBy(() -> s2.get(key("a")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("The state store for version 2 of " + folder + " was aborted and can't be used any more; "
            + "load the version again from its provider");
    StateStore again = p.load(2);
    assertThat(contents(again)).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 1L, "b", 2L)));
    assertThat(store.readCount()).as("served from the cached map, not re-read").isZero();

    StateStore replacing = p.load(2);
    assertThatThrownBy(again::commit)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("was replaced by a later load()");
    replacing.commit();
    assertThat(contents(p.load(3))).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 1L, "b", 2L)));
  }

  @Test
  void aRestartRebuildsFromTheLatestSnapshotAndLaterDeltas() {
    StateStoreProvider p = provider(3);
    for (long v = 1; v <= 7; v++) {
      commit(p, v, Map.of("k" + v, v, "k" + (v - 1), -1L, "shared", v * 10));
    }
    assertThat(files()).containsExactly("1.delta", "2.delta", "3.delta", "3.snapshot", "4.delta", "5.delta",
        "6.delta", "6.snapshot", "7.delta");

    p.purge(7);
    assertThat(files()).as("deltas before the 6.snapshot are gone, so a rebuild must use it")
        .containsExactly("6.delta", "6.snapshot", "7.delta");

    StateStore restarted = provider(3).load(8);
    assertThat(contents(restarted)).containsExactlyEntriesOf(new TreeMap<>(Map.of("k7", 7L, "shared", 70L)));
    assertThat(restarted.size()).isEqualTo(2);
    restarted.put(key("k8"), value(8));
    restarted.commit();
    assertThat(restarted.metrics().memoryUsedBytes())
        .as("the estimate after a rebuild matches the one kept while committing")
        .isEqualTo(memoryAfterReplayingInOneProvider());
  }

  @Test
  void aStateThatEvictsMostOfWhatItPutsIsSnapshottedBeforeItsDeltasOutweighIt() {
    commitEvictingVersions(provider(100), 3);
    assertThat(files()).as("version 2's deltas (18,000 records) outweigh the 6,000 keys held: snapshot it although "
        + "the interval is 100; version 3's 12,000 records since then outweigh them again")
        .containsExactly("1.delta", "2.delta", "2.snapshot", "3.delta", "3.snapshot");
    StateStore restarted = provider(100).load(4);
    assertThat(restarted.size()).isEqualTo(6_000);
    assertThat(restarted.get(key("v3-17"))).isEqualTo(value(3));
    assertThat(restarted.get(key("v2-17"))).isNull();
  }

  /**
   * Like dedup under a watermark: versions 1..{@code versions} each put 6,000 new keys ("v<version>-<i>", value the
   * version) and remove the previous version's.
   */
  static void commitEvictingVersions(StateStoreProvider p, int versions) {
    for (long v = 1; v <= versions; v++) {
      StateStore s = p.load(v);
      for (int i = 0; i < 6_000; i++) {
        s.put(key("v" + v + "-" + i), value(v));
        if (v > 1) {
          s.remove(key("v" + (v - 1) + "-" + i));
        }
      }
      s.commit();
    }
  }

  @Test
  void aStateThatKeepsWhatItPutsWaitsForTheSnapshotInterval() {
    StateStoreProvider p = provider(100);
    for (long v = 1; v <= 3; v++) {
      StateStore s = p.load(v);
      for (int i = 0; i < 6_000; i++) {
        s.put(key("v" + v + "-" + i), value(v));
      }
      s.commit();
    }
    assertThat(files()).as("replaying 18,000 records costs what the 18,000 keys held would")
        .containsExactly("1.delta", "2.delta", "3.delta");
  }

  private long memoryAfterReplayingInOneProvider() {
    folder = new Location(store, "ckpt/state/0/1");
    StateStoreProvider p = provider(3);
    commit(p, 1, Map.of("k7", 7L, "shared", 70L));
    return commit(p, 2, Map.of("k8", 8L)).metrics().memoryUsedBytes();
  }

  @Test
  void reRunningAVersionReplacesItsFilesAndDropsTheAbandonedFuture() {
    StateStoreProvider first = provider(2);
    commit(first, 1, Map.of("a", 1L));
    commit(first, 2, Map.of("b", 2L));
    commit(first, 3, Map.of("c", 3L));
    assertThat(files()).contains("2.snapshot", "3.delta");

    // a new run (snapshot interval now 5) re-runs version 2 after a crash
    StateStoreProvider second = StateStores.inMemory(folder, SCHEMA, 5);
    providers.add(second);
    commit(second, 2, Map.of("b", 20L));
    assertThat(files()).as("the stale 2.snapshot and 3.delta would mix with the re-run's files")
        .containsExactly("1.delta", "2.delta");

    StateStore restarted = provider(5).load(3);
    assertThat(contents(restarted)).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 1L, "b", 20L)));
  }

  @Test
  void reRunningTheVersionJustCommittedInTheSameProviderReadsThePreviousOneFromFiles() {
    StateStoreProvider p = provider(10);
    commit(p, 1, Map.of("a", 1L));
    commit(p, 2, Map.of("a", 2L, "b", 2L));
    StateStore rerun = p.load(2);
    assertThat(contents(rerun)).containsExactlyEntriesOf(Map.of("a", 1L));
    rerun.put(key("c"), value(3));
    rerun.commit();
    assertThat(contents(provider(10).load(3))).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 1L, "c", 3L)));
  }

  @Test
  void purgeKeepsWhatIsNeededForTheOldestVersionToKeep() {
    StateStoreProvider p = provider(2);
    for (long v = 1; v <= 6; v++) {
      commit(p, v, Map.of("k" + v, v));
    }
    p.purge(1);
    assertThat(files()).as("no snapshot at or below 1: everything is needed").hasSize(9);
    p.purge(5);
    assertThat(files()).containsExactly("4.delta", "4.snapshot", "5.delta", "6.delta", "6.snapshot");
    assertThat(contents(provider(2).load(6))).hasSize(5);
    assertThatThrownBy(() -> provider(2).load(4))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("1.delta is missing");
  }

  /**
   * A read started ahead ({@code prepare}) gives the load the state a load alone reads; a prepared version the
   * load doesn't ask for is dropped, and a read ahead that fails fails the load with the same error.
   */
  @Test
  void aStateReadAheadLoadsWhatALoadReadsAndFailsAsItFails() throws Exception {
    StateStoreProvider p = provider(3);
    for (long v = 1; v <= 5; v++) {
      commit(p, v, Map.of("k" + v, v, "k" + (v - 1), -1L, "shared", v * 10));
    }
    StateStoreProvider ahead = provider(3);
    ahead.prepare(6);
    Map<String, Long> expected = contents(provider(3).load(6));
    assertThat(expected).containsOnlyKeys("k5", "shared");
    StateStore s = ahead.load(6);
    assertThat(contents(s)).isEqualTo(expected);
    s.put(key("k6"), value(6));
    s.commit();
    ahead.prepare(7); // the cache holds version 6 already: nothing to read
    assertThat(contents(ahead.load(7))).containsOnlyKeys("k5", "k6", "shared");

    StateStoreProvider other = provider(3);
    other.prepare(4);
    assertThat(contents(other.load(3))).containsOnlyKeys("k2", "shared").containsEntry("shared", 20L);

    Files.delete(dir.resolve("ckpt/state/0/0/5.delta"));
    StateStoreProvider failing = provider(3);
    failing.prepare(6);
    assertThatThrownBy(() -> failing.load(6)).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Cannot rebuild state version 5 in " + folder + ": " + folder.resolve("5.delta"));
  }

  @Test
  void aMissingDeltaFailsNamingTheFileAndTheFix() throws Exception {
    StateStoreProvider p = provider(3);
    for (long v = 1; v <= 5; v++) {
      commit(p, v, Map.of("k" + v, v));
    }
    Files.delete(dir.resolve("ckpt/state/0/0/5.delta"));
    Files.delete(dir.resolve("ckpt/state/0/0/2.delta"));

    assertThatThrownBy(() -> provider(3).load(6))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot rebuild state version 5 in " + folder + ": " + folder.resolve("5.delta")
            + " is missing (it follows the snapshot of version 3). The checkpoint's state is incomplete (files "
            + "were deleted or not copied); restore the checkpoint's state folder from a backup, or start the "
            + "query with a new checkpoint");
    Files.delete(dir.resolve("ckpt/state/0/0/3.snapshot"));
    assertThatThrownBy(() -> provider(3).load(4))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(folder.resolve("2.delta") + " is missing (there is no snapshot at or below version 3, "
            + "so every delta from 1 is needed)");
    assertThat(contents(provider(3).load(2))).containsExactlyEntriesOf(Map.of("k1", 1L));
  }

  @Test
  void aCorruptFileFailsNamingIt() throws Exception {
    StateStoreProvider p = provider(10);
    commit(p, 1, Map.of("a", 1L));
    Files.write(dir.resolve("ckpt/state/0/0/1.delta"), new byte[] {'S', 'L', 'S', 'T', 1, 'D', 1, 9, 9});

    assertThatThrownBy(() -> provider(10).load(2))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("The state file " + folder.resolve("1.delta") + " can't be read: ")
        .hasMessageEndingWith("It was damaged or not written by Sluice's in-memory state store; restore the "
            + "checkpoint's state folder from a backup, or start the query with a new checkpoint");
  }

  @Test
  void aFailedDeltaWriteLeavesThePreviousVersionAndAFailedSnapshotDoesNotFailTheCommit() {
    StateStoreProvider p = provider(2);
    commit(p, 1, Map.of("a", 1L));
    store.failOverwritesMatching(k -> k.endsWith("2.delta"));
    StateStore s = p.load(2);
    s.put(key("b"), value(2));
    assertThatThrownBy(s::commit).hasMessageContaining("2.delta");
    assertThatThrownBy(() -> s.put(key("c"), value(3)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("was not committed because its commit failed");

    store.failOverwritesMatching(k -> k.endsWith(".snapshot"));
    StateStore retry = p.load(2);
    assertThat(contents(retry)).containsExactlyEntriesOf(Map.of("a", 1L));
    retry.put(key("b"), value(2));
    retry.commit();
    assertThat(files()).containsExactly("1.delta", "2.delta");
    assertThat(contents(provider(2).load(3))).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 1L, "b", 2L)));
  }

  @Test
  void invalidArgumentsAreRefused() {
    assertThatThrownBy(() -> StateStores.inMemory(folder, SCHEMA, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("The state snapshot interval must be at least 1 version, not 0 (state of " + folder + ")");
    assertThatThrownBy(() -> provider(1).load(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("State versions to write start at 1 (version 0 is the empty state), not 0 (state of "
            + folder + ")");
    StateStore s = provider(1).load(1);
    // Entries are encoded when they are put, so a row that doesn't fit the schema is refused there.
    assertThatThrownBy(() -> s.put(Row.of(5L), value(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("State key column 'user' has type string but holds a java.lang.Long");
    s.put(key("a"), value(1));
    s.commit();
    assertThat(s.metrics().numRowsTotal()).isEqualTo(1);
  }

  @Test
  void putIfAbsentAddsOnlyNewKeysIncludingOnesRemovedInTheBatch() {
    StateStoreProvider p = provider(10);
    commit(p, 1, Map.of("a", 1L, "b", 2L));
    StateStore s = p.load(2);
    assertThat(s.putIfAbsent(key("a"), value(9))).isFalse();
    assertThat(s.putIfAbsent(key("c"), value(3))).isTrue();
    assertThat(s.putIfAbsent(key("c"), value(4))).isFalse();
    s.remove(key("b"));
    assertThat(s.contains(key("b"))).isFalse();
    assertThat(s.putIfAbsent(key("b"), value(5))).isTrue();
    assertThat(s.size()).isEqualTo(3);
    s.commit();
    assertThat(contents(p.load(3))).containsExactly(Map.entry("a", 1L), Map.entry("b", 5L), Map.entry("c", 3L));
  }

  @Test
  void removeWhereSeesEachValueOnceAndRemovesAcrossBaseAndChanges() {
    StateStoreProvider p = provider(10);
    commit(p, 1, Map.of("a", 1L, "b", 2L, "c", 3L));
    StateStore s = p.load(2);
    s.put(key("d"), value(4));
    s.put(key("a"), value(10));
    s.remove(key("c"));
    List<Long> seen = new ArrayList<>();
    long removed = s.removeWhere(v -> {
      seen.add((Long) v.get(0));
      return (Long) v.get(0) % 2 == 0;
    });
    assertThat(seen).containsExactlyInAnyOrder(10L, 2L, 4L);
    assertThat(removed).isEqualTo(3);
    assertThat(s.size()).isZero();
    s.commit();
    assertThat(contents(p.load(3))).isEmpty();
    assertThat(s.metrics().numRowsRemoved()).isEqualTo(3);
  }

  /**
   * The store changes its provider's map in place and undoes that on abort: random batches of puts, removes
   * (also of keys put in the same batch, and puts of keys removed in it) and evictions, committed or aborted,
   * leave what a plain map says, both in the cached map and rebuilt from the files by a new provider.
   */
  @Test
  void randomBatchesCommittedOrAbortedMatchAPlainMapInMemoryAndFromFiles() {
    java.util.Random random = new java.util.Random(7);
    StateStoreProvider p = provider(4);
    Map<String, Long> expected = new TreeMap<>();
    long version = 1;
    for (int batch = 0; batch < 60; batch++) {
      StateStore s = p.load(version);
      Map<String, Long> working = new TreeMap<>(expected);
      int ops = random.nextInt(200);
      for (int i = 0; i < ops; i++) {
        String k = "k" + random.nextInt(120);
        long v = random.nextInt(1000);
        switch (random.nextInt(4)) {
          case 0 -> {
            s.put(key(k), value(v));
            working.put(k, v);
          }
          case 1 -> assertThat(s.putIfAbsent(key(k), value(v))).isEqualTo(working.putIfAbsent(k, v) == null);
          case 2 -> {
            s.remove(key(k));
            working.remove(k);
          }
          default -> {
            long limit = random.nextInt(100);
            long removed = s.removeWhere(value -> (Long) value.get(0) < limit);
            long before = working.size();
            working.values().removeIf(x -> x < limit);
            assertThat(removed).isEqualTo(before - working.size());
          }
        }
        assertThat(s.size()).isEqualTo(working.size());
      }
      assertThat(contents(s)).isEqualTo(working);
      if (random.nextInt(4) == 0) {
        s.abort();
      } else {
        s.commit();
        expected = working;
        version++;
      }
    }
    assertThat(contents(p.load(version))).isEqualTo(expected);
    assertThat(contents(provider(4).load(version))).isEqualTo(expected);
  }
}
