package dev.sluice.ingestion.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.Location;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.testing.S3ProxyServer;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The in-memory provider's files on S3 (S3Proxy): commit, snapshot, purge, restart, re-run. */
class InMemoryStateStoreS3IT {
  static final StateSchema SCHEMA = new StateSchema(
      StructType.empty().add("window_start", PrimitiveType.TIMESTAMP).add("user", PrimitiveType.STRING),
      StructType.empty().add("count", PrimitiveType.LONG).add("seen", new ArrayType(PrimitiveType.STRING, true)));
  static S3ProxyServer s3;

  @BeforeAll
  static void start() {
    s3 = S3ProxyServer.start();
  }

  @AfterAll
  static void stop() {
    s3.close();
  }

  static Row key(int i) {
    return Row.of(Instant.ofEpochSecond(1_700_000_000L + i % 3 * 60), "user-" + i);
  }

  @Test
  void commitsSnapshotsPurgesAndRebuildsOnS3() {
    ObjectStore store = s3.newStore("state-it");
    Location folder = new Location(store, "ckpt/state/0/0");
    Map<Row, Row> expected = new HashMap<>();
    try (StateStoreProvider p = StateStores.inMemory(folder, SCHEMA, 4)) {
      for (long v = 1; v <= 9; v++) {
        StateStore s = p.load(v);
        for (int i = 0; i < 200; i++) {
          Row k = key((int) (i * v % 500));
          Row old = s.get(k);
          long count = old == null ? 1 : (Long) old.get(0) + 1;
          Row value = Row.of(count, List.of("v" + v));
          s.put(k, value);
          expected.put(k, value);
        }
        s.remove(key((int) v));
        expected.remove(key((int) v));
        s.commit();
        assertThat(s.metrics().numRowsTotal()).isEqualTo(expected.size());
      }
      p.purge(9);
    }
    assertThat(store.list("ckpt/state/0/0/").toList()).extracting(ObjectStatus::name)
        .containsExactly("8.delta", "8.snapshot", "9.delta");

    try (StateStoreProvider restarted = StateStores.inMemory(folder, SCHEMA, 4)) {
      StateStore s = restarted.load(10);
      Map<Row, Row> actual = new HashMap<>();
      s.iterator().forEachRemaining(e -> actual.put(e.key(), e.value()));
      assertThat(actual).isEqualTo(expected);

      assertThat(expected.get(key(1))).isNotNull();
      s.put(key(1), Row.of(1L, null));
      s.commit();
      StateStore rerun = restarted.load(10);
      assertThat(rerun.get(key(1))).as("version 9 again, not the first attempt at 10")
          .isEqualTo(expected.get(key(1)));
      rerun.commit();
    }
    store.delete("ckpt/state/0/0/9.delta");
    try (StateStoreProvider broken = StateStores.inMemory(folder, SCHEMA, 4)) {
      assertThatThrownBy(() -> broken.load(11))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(folder.resolve("9.delta") + " is missing (it follows the snapshot of version 8)");
    }
  }
}
