package dev.sluice.bronze;

import static dev.sluice.bronze.BronzeFixture.config;
import static dev.sluice.bronze.BronzeFixture.rows;
import static dev.sluice.bronze.BronzeFixture.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.table.Table;
import dev.sluice.table.testing.S3ProxyServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The bronze pipeline with landing files, warehouse, checkpoint and quarantine all on S3 (S3Proxy in-process). */
class BronzeOnS3IT {
  static S3ProxyServer s3;

  @BeforeAll
  static void start() {
    s3 = S3ProxyServer.start();
  }

  @AfterAll
  static void stop() {
    s3.close();
  }

  private SluiceSession session() {
    return SluiceSession.builder()
        .storageOption("endpoint", s3.endpoint().toString())
        .storageOption("region", "us-east-1")
        .storageOption("access-key-id", s3.accessKey())
        .storageOption("secret-access-key", s3.secretKey())
        .build();
  }

  private static void land(SluiceSession session, String uri, String content) {
    Location file = session.location(uri);
    file.store().create(file.key(), content.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void bronzeOnS3WritesEachLineOnceAndQuarantinesBrokenOnes() {
    String root = "s3://" + s3.bucket() + "/bronze-it";
    SluiceConfig config = config(root + "/wh", "{format: json, path: " + root + "/landing,"
        + " schema: [{name: id, type: long}, {name: amount, type: double}]}", "");
    try (SluiceSession session = session()) {
      land(session, root + "/landing/a.json", "{\"id\":1,\"amount\":1.5}\n{\"id\":2,\"amount\":\"x\"}\n{bad\n");
      List<QueryProgress> progress = new ArrayList<>(run(session, config).recentProgress());
      assertThat(run(session, config).recentProgress()).isEmpty();
      land(session, root + "/landing/b.json", "{\"id\":3,\"amount\":3,\"note\":\"n\"}\n");
      progress.addAll(run(session, config).recentProgress());

      Table bronze = session.table(root + "/wh/bronze/orders");
      Table quarantine = session.table(root + "/wh/bronze/orders_quarantine");
      List<Map<String, Object>> rows = rows(bronze);
      assertThat(rows).extracting(r -> r.get("id"), r -> r.get("_rescued_data"), r -> r.get("_batch_id"),
          r -> r.get("_source")).containsExactlyInAnyOrder(
          org.assertj.core.groups.Tuple.tuple(1L, null, 0L, root + "/landing/a.json"),
          org.assertj.core.groups.Tuple.tuple(2L, "{\"amount\":\"x\"}", 0L, root + "/landing/a.json"),
          org.assertj.core.groups.Tuple.tuple(3L, "{\"note\":\"n\"}", 1L, root + "/landing/b.json"));
      assertThat(rows(quarantine)).extracting(r -> r.get("raw"), r -> r.get("source"))
          .containsExactly(org.assertj.core.groups.Tuple.tuple("{bad", root + "/landing/a.json"));
      assertThat(BronzeFixture.batchCommits(bronze)).hasSize(2);
      BronzeFixture.assertLedgerBalances(bronze, quarantine, progress);
    }
  }
}
