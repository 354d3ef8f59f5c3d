package dev.sluice.orchestration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.SluiceSession;
import dev.sluice.table.testing.S3ProxyServer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The orders scenario with its warehouse on S3 (S3Proxy in-process). */
class OrdersScenarioOnS3IT {
  @TempDir Path dir;

  @Test
  void layersAreExactOnS3() {
    try (S3ProxyServer s3 = S3ProxyServer.start()) {
      SluiceSession session = SluiceSession.builder()
          .storageOption("endpoint", s3.endpoint().toString())
          .storageOption("region", "us-east-1")
          .storageOption("access-key-id", s3.accessKey())
          .storageOption("secret-access-key", s3.secretKey())
          .build();
      try (session) {
        OrdersScenario s = new OrdersScenario(dir, "s3://" + s3.bucket() + "/warehouse", Map.of());
        s.land(6, 200);
        assertThat(s.run(session)).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
        s.check(session);
        s.land(2, 200);
        s.run(session);
        s.check(session);
      }
    }
  }
}
