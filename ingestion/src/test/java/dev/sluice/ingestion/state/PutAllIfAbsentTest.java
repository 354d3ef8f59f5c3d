package dev.sluice.ingestion.state;

import static dev.sluice.ingestion.state.InMemoryStateStoreTest.SCHEMA;
import static dev.sluice.ingestion.state.InMemoryStateStoreTest.contents;
import static dev.sluice.ingestion.state.InMemoryStateStoreTest.key;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.Location;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link StateStore#putAllIfAbsent} over both providers: RocksDB's multiGet chunks act as a putIfAbsent per row. */
class PutAllIfAbsentTest {
  /** A deduplication's shape: a value of one LONG column (an expiry). */
  private static final StateSchema LONG_VALUES = new StateSchema(StructType.empty().add("user", PrimitiveType.STRING),
      StructType.empty().add("expiresAt", PrimitiveType.LONG));

  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(StateStoreType.class)
  void putsOnlyKeysAbsentFromTheStoreAndFromEarlierInTheList(StateStoreType type) {
    putsOnlyAbsentKeys(type, false);
  }

  /** Values given as longs ({@link StateStore#putAllIfAbsentLongs}, a deduplication's expiries) act the same. */
  @ParameterizedTest
  @EnumSource(StateStoreType.class)
  void valuesGivenAsLongsArePutAndCommittedAlike(StateStoreType type) {
    putsOnlyAbsentKeys(type, true);
  }

  private void putsOnlyAbsentKeys(StateStoreType type, boolean asLongs) {
    try (StateStoreFactory f = StateStores.factory(StateStoreSettings.of(type).withLocalDir(dir.resolve("local"))
        .withRocksDbMemoryBytes(8 << 20))) {
      StateSchema schema = asLongs ? LONG_VALUES : SCHEMA;
      StateStoreProvider p = f.create(new Location(new LocalObjectStore(dir.resolve("remote")), "s/0/0"), schema);
      StateStore first = p.load(1);
      first.put(key("k7"), value(-7, asLongs));
      first.commit();
      StateStore s = p.load(2);
      // 3,000 rows over 2,000 keys: duplicates within a multiGet chunk (of 1,024) and across chunks
      List<Row> keys = new ArrayList<>();
      List<Row> values = new ArrayList<>();
      for (int i = 0; i < 3_000; i++) {
        int k = i < 2_000 ? i : (i * 7) % 2_000;
        keys.add(key("k" + k));
        values.add(value(i, asLongs));
      }
      keys.add(5, key("k3")); // a duplicate right after its first occurrence, in the same chunk
      values.add(5, value(99_999, asLongs));
      boolean[] put;
      if (asLongs) {
        long[] longs = new long[values.size() + 3]; // longer than the keys: only the first keys.size() count
        for (int i = 0; i < values.size(); i++) {
          longs[i] = (Long) values.get(i).get(0);
        }
        put = s.putAllIfAbsentLongs(keys, longs);
      } else {
        put = s.putAllIfAbsent(keys, values);
      }
      assertThat(put).hasSize(keys.size());
      int puts = 0;
      for (int i = 0; i < put.length; i++) {
        boolean expected = keys.indexOf(keys.get(i)) == i && !keys.get(i).equals(key("k7"));
        assertThat(put[i]).as("row %d (%s)", i, keys.get(i)).isEqualTo(expected);
        puts += put[i] ? 1 : 0;
      }
      assertThat(puts).isEqualTo(1_999);
      assertThat(s.size()).isEqualTo(2_000);
      assertThat(contents(s)).containsEntry("k7", -7L).containsEntry("k3", 3L).containsEntry("k1999", 1_999L);
      var before = contents(s);
      s.commit();
      p.close();
      // What was put reached the committed change log: a fresh provider loads the same entries for the next version.
      StateStoreProvider again = f.create(new Location(new LocalObjectStore(dir.resolve("remote")), "s/0/0"), schema);
      assertThat(contents(again.load(3))).isEqualTo(before);
      again.close();
    }
  }

  private static Row value(long count, boolean asLongs) {
    return asLongs ? Row.of(count) : InMemoryStateStoreTest.value(count);
  }
}
