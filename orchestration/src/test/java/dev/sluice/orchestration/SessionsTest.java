package dev.sluice.orchestration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.table.storage.S3ObjectStore;
import dev.sluice.table.storage.S3Timeouts;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionsTest {
  @Test
  void storageTimeoutsOfTheConfigReachTheS3Store() {
    SluiceConfig config = ConfigLoader.parse("warehouse: s3://bucket/wh\n"
        + "storage: {endpoint: http://127.0.0.1:9, connection_timeout: 1 second, socket_timeout: 2 minutes}\n"
        + "pipelines:\n"
        + "  - {name: b, layer: bronze, source: {format: parquet, path: in}, sink: {table: bronze/b}}\n", "t", Map.of());

    try (SluiceSession session = Sessions.forConfig(config)) {
      S3ObjectStore store = (S3ObjectStore) session.table(config.tableUri("bronze/b").toString()).store();
      assertThat(store.options().timeouts()).isEqualTo(new S3Timeouts(Duration.ofSeconds(1), Duration.ofMinutes(2),
          S3Timeouts.DEFAULT.attempt()));
    }
  }
}
