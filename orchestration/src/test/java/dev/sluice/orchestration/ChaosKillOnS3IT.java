package dev.sluice.orchestration;

import dev.sluice.ingestion.SluiceSession;
import dev.sluice.table.testing.S3ProxyServer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of {@code sluice run} children writing the orders example to S3Proxy (in this JVM, so it
 * outlives every child); then a run to the end and the oracle check. {@code -Pchaos} sets
 * {@code sluice.chaos.kills.s3} (50).
 */
class ChaosKillOnS3IT {
  static final int KILLS = Integer.getInteger("sluice.chaos.kills.s3", 2);
  @TempDir Path dir;

  @Test
  void killedRunsOnS3AreResumedExactly() {
    try (S3ProxyServer s3 = S3ProxyServer.start()) {
      OrdersScenario s = new OrdersScenario(dir, "s3://" + s3.bucket() + "/warehouse", Map.of());
      s.land(4, 120);
      String storage = "storage: {endpoint: \"" + s3.endpoint() + "\", region: us-east-1, path_style: true,"
          + " access_key_id: \"${env:CHAOS_S3_KEY}\", secret_access_key: \"${env:CHAOS_S3_SECRET}\"}\n";
      try (SluiceSession session = ChaosStorageFaultsIT.s3Session(s3).build()) {
        KillLoop.Figures f = new KillLoop(s, s.writeConfig(storage), session, Long.getLong("sluice.chaos.seed", 12L),
            Map.of("CHAOS_S3_KEY", s3.accessKey(), "CHAOS_S3_SECRET", s3.secretKey())).run(KILLS, "s3");
        System.out.println("chaos kill -9 (S3Proxy): " + f);
      }
    }
  }
}
