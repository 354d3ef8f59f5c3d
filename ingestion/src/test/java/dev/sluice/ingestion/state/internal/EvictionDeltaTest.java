package dev.sluice.ingestion.state.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.ingestion.state.StateStoreType;
import dev.sluice.ingestion.state.StateTimeIndex;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An in-memory store's eviction by a time in the value is one record of its delta, not one per evicted key; a fresh
 * provider rebuilds the same state from it, and the state's change feed still names every evicted key.
 */
class EvictionDeltaTest {
  private static final StateTimeIndex EXPIRY = StateTimeIndex.ofLongValueColumn(0);

  @TempDir
  Path dir;

  @Test
  void anEvictionIsOneRecordThatRebuildsTheStateAndTheChangeFeedStillNamesEachKey() {
    // Two value columns: the time is read from the encoded value, not kept as a long.
    StateSchema schema = new StateSchema(StructType.empty().add("id", PrimitiveType.STRING),
        StructType.empty().add("expiresAt", PrimitiveType.LONG).add("note", PrimitiveType.STRING));
    Location location = new Location(new LocalObjectStore(dir), "ckpt/state/0/0");
    InMemoryStateStoreProvider p = InMemoryStateStoreProvider.create(location, schema, 100);
    StateStore v1 = p.load(1);
    for (int i = 0; i < 1_000; i++) {
      v1.put(Row.of("k" + i), Row.of((long) i, "n" + i));
    }
    v1.commit();

    StateStore v2 = p.load(2);
    v2.put(Row.of("new"), Row.of(5_000L, "x"));
    v2.put(Row.of("k999"), Row.of(10L, "changed before")); // changed before the eviction, which then removes it
    assertThat(v2.removeUpTo(EXPIRY, 599, null).removed()).isEqualTo(601);
    v2.put(Row.of("k800"), Row.of(1L, "changed after")); // kept by the eviction, then moved before its time
    Map<String, String> expected = new TreeMap<>();
    for (int i = 600; i < 999; i++) {
      expected.put("k" + i, i + "/n" + i);
    }
    expected.put("k800", "1/changed after");
    expected.put("new", "5000/x");
    assertThat(contents(v2)).isEqualTo(expected);
    v2.commit();

    List<String> records = new ArrayList<>();
    StateRowCodec codec = new StateRowCodec(new StructCodec(schema.keySchema(), "key"),
        new StructCodec(schema.valueSchema(), "value"));
    new StateFiles(location, new StructCodec(schema.keySchema(), "key"), new StructCodec(schema.valueSchema(), "value"),
        InMemoryStateStoreProvider.DEFAULT_COMPRESSION).read(StateFileNames.delta(2), StateFileFormat.DELTA,
        new StateFileFormat.Visitor() {
          @Override
          public void put(byte[] key, byte[] value) {
            records.add("put " + codec.decodeKey(key).get(0));
          }

          @Override
          public void remove(byte[] key) {
            records.add("remove " + codec.decodeKey(key).get(0));
          }

          @Override
          public void removeUpTo(int column, long upToMicros) {
            records.add("removeUpTo " + column + " " + upToMicros);
          }
        });
    assertThat(records).containsExactly("put new", "remove k999", "removeUpTo 0 599", "put k800");

    InMemoryStateStoreProvider fresh = InMemoryStateStoreProvider.create(location, schema, 100);
    assertThat(contents(fresh.load(3))).isEqualTo(expected);

    List<StateHistory.Change> changes = new StateHistory(location, schema, StateStoreType.IN_MEMORY).changes(2);
    assertThat(changes).hasSize(1 + 1 + 600 + 1);
    assertThat(changes.stream().filter(c -> c.value() == null).map(c -> (String) c.key().get(0)).sorted())
        .hasSize(601).contains("k0", "k599", "k999").doesNotContain("k600");
    assertThat(changes.get(changes.size() - 1).key().get(0)).isEqualTo("k800");
  }

  private static Map<String, String> contents(StateStore s) {
    Map<String, String> out = new TreeMap<>();
    s.iterator().forEachRemaining(e -> out.put((String) e.key().get(0), e.value().get(0) + "/" + e.value().get(1)));
    return out;
  }
}
