package dev.sluice.ingestion;

import dev.sluice.table.testing.S3ProxyServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link StatefulRecoveryScenarios} with landing files, checkpoint, state, output and late rows on S3 (S3Proxy). */
class StatefulRecoveryOnS3IT extends StatefulRecoveryScenarios {
  static S3ProxyServer s3;
  private static int scenarios;

  @BeforeAll
  static void start() {
    s3 = S3ProxyServer.start();
  }

  @AfterAll
  static void stop() {
    s3.close();
  }

  @Override
  SluiceSession session() {
    return builder().build();
  }

  /** A session builder that reaches the S3Proxy bucket. */
  static SluiceSession.Builder builder() {
    return SluiceSession.builder()
        .storageOption("endpoint", s3.endpoint().toString())
        .storageOption("region", "us-east-1")
        .storageOption("access-key-id", s3.accessKey())
        .storageOption("secret-access-key", s3.secretKey());
  }

  @Override
  String root(String name) {
    return "s3://" + s3.bucket() + "/" + name + "-" + (scenarios++);
  }

  @Override
  void put(SluiceSession session, String folder, String name, byte[] bytes) {
    Location file = session.location(folder + "/" + name);
    file.store().create(file.key(), bytes);
  }

  /** S3Proxy's blob store writes {@code <key>-<uuid>} and renames it: a listing meanwhile shows that name. */
  @Override
  boolean landsWhileRunning() {
    return false;
  }
}
