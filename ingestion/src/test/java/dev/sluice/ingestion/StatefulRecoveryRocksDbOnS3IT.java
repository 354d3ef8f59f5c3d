package dev.sluice.ingestion;

import dev.sluice.ingestion.state.StateStoreSettings;
import dev.sluice.ingestion.state.StateStoreType;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StatefulRecoveryScenarios} on S3 (S3Proxy) with the RocksDB store: every restart (a new availableNow run,
 * a stopped and restarted continuous query, a run after an injected crash) opens providers with an empty local
 * working directory, so each one rebuilds its state from the snapshots and changelogs in the bucket.
 */
class StatefulRecoveryRocksDbOnS3IT extends StatefulRecoveryOnS3IT {
  @TempDir
  Path local;

  @Override
  SluiceSession session() {
    return builder().stateStore(StateStoreSettings.of(StateStoreType.ROCKSDB).withLocalDir(local)
        .withSnapshotInterval(3).withRocksDbMemoryBytes(16 << 20)).build();
  }
}
