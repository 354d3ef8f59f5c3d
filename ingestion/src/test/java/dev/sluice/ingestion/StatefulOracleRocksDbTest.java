package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.state.StateStoreSettings;
import dev.sluice.ingestion.state.StateStoreType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;

/**
 * Every seeded random stream of {@link StatefulOracleTest} on the RocksDB store (a snapshot every 2 versions, so
 * rebuilds mix snapshots and changelogs): the outputs must equal the same oracle as the in-memory store's.
 */
class StatefulOracleRocksDbTest extends StatefulOracleTest {
  @Override
  SluiceSession session() {
    return SluiceSession.builder().stateStore(StateStoreSettings.of(StateStoreType.ROCKSDB)
        .withLocalDir(dir.resolve("rocksdb-local")).withSnapshotInterval(2).withRocksDbMemoryBytes(16 << 20)).build();
  }

  @AfterEach
  void theStateWasKeptByRocksDb() throws IOException {
    List<String> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files = walk.map(p -> dir.relativize(p).toString()).filter(f -> f.contains("/state/")).toList();
    }
    // (the memory sink's test has a temporary checkpoint elsewhere)
    if (!files.isEmpty()) {
      assertThat(files).anyMatch(f -> f.endsWith(".changelog")).anyMatch(f -> f.endsWith(".zip"))
          .noneMatch(f -> f.endsWith(".delta"));
    }
    try (Stream<Path> local = Files.list(dir.resolve("rocksdb-local"))) {
      assertThat(local.toList()).as("finished queries delete their local RocksDB copies").isEmpty();
    }
  }
}
