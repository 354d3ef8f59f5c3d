package dev.sluice.ingestion.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.Location;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints written before the store kept encoded entries (resources {@code state-v1/}: three deltas and
 * a snapshot at version 2, written by the boxed-row store) load unchanged, and keep loading after new commits.
 */
class StateFormatV1Test {
  static final StateSchema SCHEMA = new StateSchema(
      StructType.empty().add("order_id", PrimitiveType.STRING).add("updated_at", PrimitiveType.TIMESTAMP),
      StructType.empty().add("expires", PrimitiveType.LONG).add("amount", DecimalType.of(12, 2)));
  static final Instant T = Instant.parse("2026-11-30T10:15:30.123456Z");

  @TempDir
  Path dir;

  @Test
  void everyVersionOfTheOldFilesLoads() throws IOException {
    Location folder = copyFixture();
    assertThat(contents(folder, 2)).containsExactly(
        Map.entry("o-1|" + T, List.of(1L, new BigDecimal("10.25"))),
        Map.entry("o-2|" + T, List.of(2L, new BigDecimal("-3.50"))),
        Map.entry("ö-3|null", java.util.Arrays.asList(3L, null)));
    assertThat(contents(folder, 3)).containsOnlyKeys("o-2|" + T, "ö-3|null")
        .containsEntry("o-2|" + T, List.of(20L, new BigDecimal("99999999.99")));
    assertThat(contents(folder, 4)).containsExactly(
        Map.entry("o-2|" + T, List.of(20L, new BigDecimal("99999999.99"))),
        Map.entry("o-4|" + T.plusSeconds(60), List.of(Long.MAX_VALUE, new BigDecimal("0.00"))));
  }

  @Test
  void oldKeysAreFoundByValueAndNewCommitsReadBack() throws IOException {
    Location folder = copyFixture();
    try (StateStoreProvider p = StateStores.inMemory(folder, SCHEMA, 2)) {
      StateStore s = p.load(4);
      assertThat(s.get(Row.of("o-2", T))).isEqualTo(Row.of(20L, new BigDecimal("99999999.99")));
      assertThat(s.contains(Row.of("o-1", T))).isFalse();
      s.remove(Row.of("o-2", T));
      s.put(Row.of("o-5", null), Row.of(5L, new BigDecimal("1.00")));
      s.commit();
      assertThat(s.metrics().numRowsTotal()).isEqualTo(2);
    }
    assertThat(contents(folder, 5)).containsOnlyKeys("o-4|" + T.plusSeconds(60), "o-5|null");
  }

  private static Map<String, List<Object>> contents(Location folder, long version) {
    Map<String, List<Object>> out = new TreeMap<>();
    try (StateStoreProvider p = StateStores.inMemory(folder, SCHEMA, 2)) {
      StateStore s = p.load(version);
      s.iterator().forEachRemaining(e -> out.put(e.key().get(0) + "|" + e.key().get(1),
          java.util.Arrays.asList(e.value().get(0), e.value().get(1))));
      assertThat(s.size()).isEqualTo(out.size());
      s.abort();
    }
    return new LinkedHashMap<>(out);
  }

  private Location copyFixture() throws IOException {
    Path target = dir.resolve("state-v1");
    Files.createDirectories(target);
    for (String name : List.of("1.delta", "2.delta", "2.snapshot", "3.delta")) {
      try (InputStream in = getClass().getResourceAsStream("/state-v1/" + name)) {
        Files.copy(in, target.resolve(name));
      }
    }
    return new Location(new LocalObjectStore(dir), "state-v1");
  }
}
