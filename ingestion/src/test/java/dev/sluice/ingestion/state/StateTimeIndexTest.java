package dev.sluice.ingestion.state;

import static dev.sluice.ingestion.state.InMemoryStateStoreTest.SCHEMA;
import static dev.sluice.ingestion.state.InMemoryStateStoreTest.commit;
import static dev.sluice.ingestion.state.InMemoryStateStoreTest.contents;
import static dev.sluice.ingestion.state.InMemoryStateStoreTest.key;
import static dev.sluice.ingestion.state.InMemoryStateStoreTest.value;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.Location;
import dev.sluice.table.storage.LocalObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link StateStore#removeUpTo} with a {@link StateTimeIndex}, over both providers: the RocksDB provider's range
 * scan of its index column family must remove what the in-memory provider's scan of every entry removes, also
 * after the index was rebuilt from changelogs and snapshots, and when a snapshot lacks it or holds a stale one.
 */
class StateTimeIndexTest {
  /** An entry's time is its count. */
  static final StateTimeIndex BY_COUNT = StateTimeIndex.ofValue(v -> (Long) v.get(0));
  /** An entry's time is its key's length. */
  static final StateTimeIndex BY_KEY_LENGTH = StateTimeIndex.ofKey(k -> ((String) k.get(0)).length());

  @TempDir
  Path dir;
  Location folder;
  final List<StateStoreFactory> factories = new ArrayList<>();
  final List<StateStoreProvider> providers = new ArrayList<>();

  @BeforeEach
  void setUp() {
    folder = new Location(new LocalObjectStore(dir.resolve("remote")), "ckpt/state/0/0");
  }

  @AfterEach
  void close() {
    providers.forEach(StateStoreProvider::close);
    factories.forEach(StateStoreFactory::close);
  }

  /** A provider as a fresh process opens it; {@code index} null: created without one. */
  StateStoreProvider provider(StateStoreType type, StateTimeIndex index, int snapshotInterval) {
    return provider(type, index, snapshotInterval, folder);
  }

  StateStoreProvider provider(StateStoreType type, StateTimeIndex index, int snapshotInterval, Location folder) {
    StateStoreFactory f = StateStores.factory(StateStoreSettings.of(type)
            .withLocalDir(dir.resolve("local").resolve(folder.key().replace('/', '_')))
        .withSnapshotInterval(snapshotInterval).withRocksDbMemoryBytes(8 << 20));
    factories.add(f);
    StateStoreProvider p = index == null ? f.create(folder, SCHEMA) : f.create(folder, SCHEMA, index);
    providers.add(p);
    return p;
  }

  static Map<String, Long> removeUpTo(StateStore s, StateTimeIndex index, long upTo, long[] lowestKept) {
    Map<String, Long> removed = new TreeMap<>();
    StateStore.Eviction e = s.removeUpTo(index, upTo, (k, v) -> removed.put((String) k.get(0), (Long) v.get(0)));
    assertThat(e.removed()).isEqualTo(removed.size());
    lowestKept[0] = e.lowestKept();
    return removed;
  }

  @ParameterizedTest
  @EnumSource(StateStoreType.class)
  void removesExactlyTheExpiredEntriesAndReportsTheLowestTimeLeft(StateStoreType type) {
    StateStoreProvider p = provider(type, BY_COUNT, 10);
    commit(p, 1, Map.of("a", 5L, "b", 10L, "c", 15L, "d", Long.MAX_VALUE, "e", 11L));
    StateStore s = p.load(2);
    long[] lowest = new long[1];
    assertThat(removeUpTo(s, BY_COUNT, 10, lowest)).isEqualTo(Map.of("a", 5L, "b", 10L));
    assertThat(lowest[0]).isEqualTo(11);
    assertThat(contents(s)).isEqualTo(Map.of("c", 15L, "d", Long.MAX_VALUE, "e", 11L));
    assertThat(s.size()).isEqualTo(3);
    assertThat(s.removeUpTo(BY_COUNT, Long.MAX_VALUE - 1, null))
        .isEqualTo(new StateStore.Eviction(2, Long.MAX_VALUE));
    s.commit();
    assertThat(contents(p.load(3))).isEqualTo(Map.of("d", Long.MAX_VALUE));
  }

  @ParameterizedTest
  @EnumSource(StateStoreType.class)
  void anEvictionOfThousandsOfEntriesRemovesEachExpiredOneOnce(StateStoreType type) {
    // More expired entries than one read chunk (RocksDB reads them 1,024 at a time), ending inside a chunk.
    StateStoreProvider p = provider(type, BY_COUNT, 10);
    Map<String, Long> entries = new java.util.HashMap<>();
    for (long i = 0; i < 3_000; i++) {
      entries.put("k" + i, i);
    }
    commit(p, 1, entries);
    StateStore s = p.load(2);
    long[] lowest = new long[1];
    Map<String, Long> removed = removeUpTo(s, BY_COUNT, 2_499, lowest);
    assertThat(removed).hasSize(2_500).containsEntry("k0", 0L).containsEntry("k1024", 1_024L)
        .containsEntry("k2499", 2_499L).doesNotContainKey("k2500");
    assertThat(lowest[0]).isEqualTo(2_500);
    assertThat(s.size()).isEqualTo(500);
    s.commit();
    assertThat(contents(p.load(3))).hasSize(500).containsEntry("k2500", 2_500L).containsEntry("k2999", 2_999L);
  }

  @ParameterizedTest
  @EnumSource(StateStoreType.class)
  void entriesPutTogetherAreIndexedLikeEntriesPutOneByOne(StateStoreType type) {
    // A dedup's putAllIfAbsent: RocksDB writes each chunk's new entries and their index entries in one batch.
    StateStoreProvider p = provider(type, BY_COUNT, 10);
    commit(p, 1, Map.of("k5", 5L));
    StateStore s = p.load(2);
    List<dev.sluice.table.data.Row> keys = new ArrayList<>();
    List<dev.sluice.table.data.Row> values = new ArrayList<>();
    for (long i = 0; i < 3_000; i++) {
      keys.add(key("k" + i));
      values.add(value(i == 5 ? 9_999 : i));
    }
    s.putAllIfAbsent(keys, values);
    long[] lowest = new long[1];
    Map<String, Long> removed = removeUpTo(s, BY_COUNT, 2_499, lowest);
    assertThat(removed).hasSize(2_500).containsEntry("k5", 5L).containsEntry("k1024", 1_024L)
        .containsEntry("k2499", 2_499L).doesNotContainKey("k2500");
    assertThat(lowest[0]).isEqualTo(2_500);
    s.commit();
    assertThat(contents(p.load(3))).hasSize(500).containsEntry("k2500", 2_500L).containsEntry("k2999", 2_999L);
  }

  @ParameterizedTest
  @EnumSource(StateStoreType.class)
  void aPutMovesItsEntryInTimeAndARemoveTakesItOutOfTheIndex(StateStoreType type) {
    StateStoreProvider p = provider(type, BY_COUNT, 10);
    commit(p, 1, Map.of("a", 5L, "b", 3L, "c", 4L));
    StateStore s = p.load(2);
    s.put(key("a"), value(20));
    s.get(key("c")); // the put after a get of the same key takes the old value from that get
    s.put(key("c"), value(30));
    s.remove(key("b"));
    long[] lowest = new long[1];
    assertThat(removeUpTo(s, BY_COUNT, 19, lowest)).isEmpty();
    assertThat(lowest[0]).isEqualTo(20);
    assertThat(removeUpTo(s, BY_COUNT, 25, lowest)).isEqualTo(Map.of("a", 20L));
    assertThat(contents(s)).isEqualTo(Map.of("c", 30L));
  }

  @ParameterizedTest
  @EnumSource(StateStoreType.class)
  void anIndexInTheKeyStaysPutWhenValuesChange(StateStoreType type) {
    StateStoreProvider p = provider(type, BY_KEY_LENGTH, 10);
    commit(p, 1, Map.of("a", 50L, "bb", 1L, "ccc", 2L));
    commit(p, 2, Map.of("a", 1L, "bb", 99L));
    StateStore s = p.load(3);
    long[] lowest = new long[1];
    assertThat(removeUpTo(s, BY_KEY_LENGTH, 2, lowest)).isEqualTo(Map.of("a", 1L, "bb", 99L));
    assertThat(lowest[0]).isEqualTo(3);
  }

  /** Snapshots every 2 versions: version 3 is snapshot 2 plus changelog 3, each replayed into the index. */
  @ParameterizedTest
  @EnumSource(StateStoreType.class)
  void aFreshProviderRebuildsTheIndexFromSnapshotAndChangelogs(StateStoreType type) {
    StateStoreProvider first = provider(type, BY_COUNT, 2);
    commit(first, 1, Map.of("a", 5L, "b", 6L, "c", 7L));
    commit(first, 2, Map.of("a", 8L, "b", -1L));
    commit(first, 3, Map.of("c", 1L, "d", 2L, "e", 9L));
    first.close();
    StateStore s = provider(type, BY_COUNT, 2).load(4);
    long[] lowest = new long[1];
    assertThat(removeUpTo(s, BY_COUNT, 8, lowest)).isEqualTo(Map.of("a", 8L, "c", 1L, "d", 2L));
    assertThat(lowest[0]).isEqualTo(9);
    assertThat(contents(s)).isEqualTo(Map.of("e", 9L));
  }

  /**
   * A run without the index (an operator of an earlier Sluice, or the state reader) changes the state after an
   * indexed snapshot: the next indexed run must not trust the stale index in its snapshot.
   */
  @ParameterizedTest
  @EnumSource(StateStoreType.class)
  void aSnapshotWithoutTheIndexOrWithAStaleOneGetsItRebuilt(StateStoreType type) {
    StateStoreProvider indexed = provider(type, BY_COUNT, 1);
    commit(indexed, 1, Map.of("a", 5L, "b", 6L));
    indexed.close();
    StateStoreProvider plain = provider(type, null, 1);
    commit(plain, 2, Map.of("a", -1L, "c", 3L));
    plain.close();
    StateStore s = provider(type, BY_COUNT, 1).load(3);
    long[] lowest = new long[1];
    assertThat(removeUpTo(s, BY_COUNT, 5, lowest)).isEqualTo(Map.of("c", 3L));
    assertThat(lowest[0]).isEqualTo(6);
    assertThat(contents(s)).isEqualTo(Map.of("b", 6L));
  }

  /**
   * A deduplication's expiry: the time read in place from the value's LONG column (null: never expires) evicts
   * what the same time read from each decoded value evicts, over extreme and negative times, after a rebuild.
   */
  @ParameterizedTest
  @EnumSource(StateStoreType.class)
  void aTimeInALongValueColumnEvictsWhatTheSameTimeReadFromDecodedValuesEvicts(StateStoreType type) {
    StateTimeIndex column = StateTimeIndex.ofLongValueColumn(0);
    StateTimeIndex function = StateTimeIndex.ofValue(v -> v.get(0) == null ? Long.MAX_VALUE : (Long) v.get(0));
    Location other = new Location(folder.store(), "ckpt/state/1/0");
    StateStoreProvider fast = provider(type, column, 10);
    StateStoreProvider plain = provider(type, null, 10, other);
    java.util.Random random = new java.util.Random(7);
    StateStore a = fast.load(1);
    StateStore b = plain.load(1);
    for (int i = 0; i < 3000; i++) {
      long time = switch (random.nextInt(10)) {
        case 0 -> Long.MIN_VALUE + random.nextInt(3);
        case 1 -> Long.MAX_VALUE - random.nextInt(3);
        default -> random.nextLong(-1L << 40, 1L << 40);
      };
      dev.sluice.table.data.Row v = i % 97 == 0 ? dev.sluice.table.data.Row.of(null, "never") : value(time);
      a.put(key("k" + i), v);
      b.put(key("k" + i), v);
    }
    a.commit();
    b.commit();
    fast.close();
    StateStore s = provider(type, column, 10).load(2);
    StateStore t = plain.load(2);
    for (long upTo : new long[] {Long.MIN_VALUE, -(1L << 39), 0, 0, 1L << 39, Long.MAX_VALUE - 2}) {
      StateStore.Eviction expected = t.removeUpTo(function, upTo, null);
      assertThat(s.removeUpTo(column, upTo, null)).as("up to %d", upTo).isEqualTo(expected);
      assertThat(contents(s)).isEqualTo(contents(t));
    }
    assertThat(contents(s)).containsKey("k0").containsKey("k97"); // null times never expire
  }
}
