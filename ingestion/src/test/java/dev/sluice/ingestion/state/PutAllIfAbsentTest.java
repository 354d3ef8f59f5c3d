package dev.sluice.ingestion.state;

import static dev.sluice.ingestion.state.InMemoryStateStoreTest.SCHEMA;
import static dev.sluice.ingestion.state.InMemoryStateStoreTest.contents;
import static dev.sluice.ingestion.state.InMemoryStateStoreTest.key;
import static dev.sluice.ingestion.state.InMemoryStateStoreTest.value;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.Location;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link StateStore#putAllIfAbsent} over both providers: RocksDB's multiGet chunks act as a putIfAbsent per row. */
class PutAllIfAbsentTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(StateStoreType.class)
  void putsOnlyKeysAbsentFromTheStoreAndFromEarlierInTheList(StateStoreType type) {
    try (StateStoreFactory f = StateStores.factory(StateStoreSettings.of(type).withLocalDir(dir.resolve("local"))
        .withRocksDbMemoryBytes(8 << 20))) {
      StateStoreProvider p = f.create(new Location(new LocalObjectStore(dir.resolve("remote")), "s/0/0"), SCHEMA);
      StateStore first = p.load(1);
      first.put(key("k7"), value(-7));
      first.commit();
      StateStore s = p.load(2);
      // 3,000 rows over 2,000 keys: duplicates within a multiGet chunk (of 1,024) and across chunks
      List<Row> keys = new ArrayList<>();
      List<Row> values = new ArrayList<>();
      for (int i = 0; i < 3_000; i++) {
        int k = i < 2_000 ? i : (i * 7) % 2_000;
        keys.add(key("k" + k));
        values.add(value(i));
      }
      keys.add(5, key("k3")); // a duplicate right after its first occurrence, in the same chunk
      values.add(5, value(99_999));
      boolean[] put = s.putAllIfAbsent(keys, values);
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
      StateStoreProvider again = f.create(new Location(new LocalObjectStore(dir.resolve("remote")), "s/0/0"), SCHEMA);
      assertThat(contents(again.load(3))).isEqualTo(before);
      again.close();
    }
  }
}
