package dev.sluice.ingestion.source.internal.delta;

import static dev.sluice.ingestion.source.internal.delta.DeltaSourceFixture.drain;
import static dev.sluice.ingestion.source.internal.delta.DeltaSourceFixture.ids;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.internal.delta.DeltaSourceFixture.Planned;
import dev.sluice.table.data.Row;
import dev.sluice.table.testing.S3ProxyServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The delta source on S3 (S3Proxy): listing, commit reads and file reads go through the S3 store. */
class DeltaSourceS3IT {
  static S3ProxyServer s3;

  @BeforeAll
  static void start() {
    s3 = S3ProxyServer.start();
  }

  @AfterAll
  static void stop() {
    s3.close();
  }

  @Test
  void streamsSnapshotCommitsAndChangesFromS3AndReplaysAfterARestart() {
    DeltaSourceFixture t = new DeltaSourceFixture(s3.newStore("delta-source"), "bronze/orders");
    t.table.create(DeltaSourceFixture.SCHEMA).enableChangeDataFeed().commit();
    t.append(0, 3, true);
    Source source = t.source(Map.of("maxFilesPerTrigger", "2"));
    List<Planned> batches = new ArrayList<>(drain(source, Optional.empty(), ReadLimit.ALL));
    t.append(3, 6, true);
    batches.addAll(drain(source, Optional.of(batches.get(batches.size() - 1).end()), ReadLimit.ALL));

    assertThat(batches).extracting(p -> p.ids().size()).containsExactly(2, 1, 2, 1);
    assertThat(ids(batches)).containsExactlyInAnyOrderElementsOf(LongStream.range(0, 6).boxed().toList());
    Source restarted = t.source(Map.of("maxFilesPerTrigger", "2"));
    for (Planned p : batches) {
      assertThat(restarted.getBatch(p.start(), p.end()).rows()).containsExactlyElementsOf(p.batch().rows());
    }

    Source changes = t.source(Map.of("readChangeFeed", "true", "startingVersion", "latest"));
    List<Planned> anchor = drain(changes, Optional.empty(), ReadLimit.ALL);
    long merge = t.table.newMerge().source(DeltaSourceFixture.SCHEMA, List.of(Row.of(4L, "changed")))
        .on("id").whenMatchedUpdate().commit().version();
    List<Planned> merged = drain(changes, Optional.of(anchor.get(anchor.size() - 1).end()), ReadLimit.ALL);
    assertThat(merged.stream().flatMap(p -> p.batch().rows().stream())
        .map(r -> r.get(3) + ":" + r.get(0) + ":" + r.get(1) + ":" + r.get(2)).sorted().toList())
        .containsExactly(merge + ":4:changed:update_postimage", merge + ":4:n4:update_preimage");
  }
}
