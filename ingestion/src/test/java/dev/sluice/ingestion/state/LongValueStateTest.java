package dev.sluice.ingestion.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.Location;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A state whose value is one LONG column (a deduplication's expiry), which the in-memory provider keeps as plain
 * longs: random puts, put-if-absents, removes, evictions by the value and aborted versions leave exactly what a map
 * says, in the batch, after commit and after a fresh provider rebuilds it from deltas and snapshots; a null value
 * midway (which such longs can't hold) changes nothing of that. RocksDB runs the same operations as a reference.
 */
class LongValueStateTest {
  private static final StateSchema SCHEMA = new StateSchema(StructType.empty().add("id", PrimitiveType.STRING),
      StructType.empty().add("expiresAt", PrimitiveType.LONG));
  private static final StateTimeIndex EXPIRY = StateTimeIndex.ofLongValueColumn(0);
  private static final String STATE_BYTES = "stateOnCurrentVersionSizeBytes";
  private static final long[] EXTREMES = {0, -1, 1, 63, 64, -64, -65, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 53};

  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(StateStoreType.class)
  void randomChangesLeaveWhatAMapSaysInTheBatchAfterCommitAndAfterARebuild(StateStoreType type) {
    Random random = new Random(42);
    Map<String, Long> committed = new TreeMap<>();
    try (StateStoreFactory f = factory(type)) {
      StateStoreProvider p = f.create(location(), SCHEMA, EXPIRY);
      long version = 1;
      for (int batch = 0; batch < 12; batch++) {
        StateStore s = p.load(version);
        Map<String, Long> now = new TreeMap<>(committed);
        boolean withNull = batch == 7;
        for (int op = 0; op < 400; op++) {
          String id = "k" + random.nextInt(300);
          long v = random.nextInt(10) == 0 ? EXTREMES[random.nextInt(EXTREMES.length)] : random.nextInt(1_000_000);
          switch (random.nextInt(5)) {
            case 0 -> {
              s.put(Row.of(id), Row.of(v));
              now.put(id, v);
            }
            case 1 -> {
              boolean put = s.putIfAbsent(Row.of(id), Row.of(v));
              assertThat(put).isEqualTo(!now.containsKey(id));
              now.putIfAbsent(id, v);
            }
            case 2 -> {
              s.remove(Row.of(id));
              now.remove(id);
            }
            default -> {
              List<Row> keys = new ArrayList<>();
              List<Row> values = new ArrayList<>();
              for (int i = 0; i < 20; i++) {
                keys.add(Row.of("k" + random.nextInt(300)));
                values.add(Row.of((long) random.nextInt(1_000_000)));
              }
              boolean[] put = s.putAllIfAbsent(keys, values);
              for (int i = 0; i < put.length; i++) {
                String k = (String) keys.get(i).get(0);
                assertThat(put[i]).isEqualTo(!now.containsKey(k));
                now.putIfAbsent(k, (Long) values.get(i).get(0));
              }
            }
          }
        }
        if (withNull) {
          s.put(Row.of("null-expiry"), Row.of((Object) null));
          now.put("null-expiry", null);
        }
        long upTo = 200_000L * (batch % 4);
        StateStore.Eviction e = s.removeUpTo(EXPIRY, upTo, null);
        long removed = now.values().stream().filter(v -> v != null && v <= upTo).count();
        now.values().removeIf(v -> v != null && v <= upTo);
        assertThat(e.removed()).isEqualTo(removed);
        assertThat(e.lowestKept()).isEqualTo(now.values().stream()
            .mapToLong(v -> v == null ? Long.MAX_VALUE : v).min().orElse(Long.MAX_VALUE));
        // Changes after the eviction, also of keys the batch changed before it: a rebuild replays an in-memory
        // store's eviction as one record, on the state as it was when the eviction ran.
        for (int op = 0; op < 100; op++) {
          String id = "k" + random.nextInt(300);
          if (random.nextBoolean()) {
            long v = random.nextInt(1_000_000);
            s.put(Row.of(id), Row.of(v));
            now.put(id, v);
          } else {
            s.remove(Row.of(id));
            now.remove(id);
          }
        }
        assertThat(contents(s)).as("batch %d", batch).isEqualTo(now);
        if (batch % 3 == 2) {
          s.abort(); // the next load must see the version before again
          continue;
        }
        s.commit();
        committed = now;
        version++;
        if (type == StateStoreType.IN_MEMORY) {
          // The encoded size kept from each version's changes is the size of the state a rebuild reads.
          StateStoreProvider rebuilt = f.create(location(), SCHEMA, EXPIRY);
          StateStore fresh = rebuilt.load(version);
          assertThat(s.metrics().customMetrics().get(STATE_BYTES)).as("state bytes after batch %d", batch)
              .isEqualTo(fresh.metrics().customMetrics().get(STATE_BYTES));
          fresh.abort();
          rebuilt.close();
        }
        if (batch % 4 == 3) {
          // A fresh process: the state rebuilt from its files.
          p.close();
          p = f.create(location(), SCHEMA, EXPIRY);
        }
        StateStore check = p.load(version);
        assertThat(contents(check)).as("after batch %d", batch).isEqualTo(committed);
        check.abort();
      }
      p.close();
    }
  }

  private Location location() {
    return new Location(new LocalObjectStore(dir.resolve("remote")), "ckpt/state/0/0");
  }

  private StateStoreFactory factory(StateStoreType type) {
    return StateStores.factory(StateStoreSettings.of(type).withLocalDir(dir.resolve("local"))
        .withSnapshotInterval(3).withRocksDbMemoryBytes(8 << 20));
  }

  private static Map<String, Long> contents(StateStore s) {
    Map<String, Long> out = new TreeMap<>();
    s.iterator().forEachRemaining(e -> out.put((String) e.key().get(0), (Long) e.value().get(0)));
    return out;
  }
}
