package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A source's counters reach the batch's progress and the sink's commit metrics. */
class SourceMetricsProgressTest {
  @TempDir Path dir;
  SluiceSession session = SluiceSession.create();

  @AfterEach
  void tearDown() {
    session.close();
  }

  @Test
  void malformedRecordsWithoutACorruptColumnAreCountedInTheProgressAndTheCommit() throws Exception {
    Path landing = Files.createDirectories(dir.resolve("landing"));
    // landed just now: availableNow waits for the default settle time instead of skipping it
    Files.writeString(landing.resolve("a.json"), "{\"id\":1,\"status\":\"open\",\"amount\":1.5}\n{\"id\":\n");
    StreamingQuery q = session.readStream().format("json").schema(Landing.SCHEMA).load(landing.toString())
        .writeStream().queryName("metrics").trigger(Trigger.availableNow()).toTable(dir.resolve("bronze").toString());
    assertThat(q.awaitTermination(Duration.ofSeconds(60))).isTrue();
    assertThat(q.exception()).isEmpty();
    QueryProgress p = q.recentProgress().get(0);
    assertThat(p.numInputRows()).isEqualTo(2);
    assertThat(p.sources().get(0).metrics()).containsEntry("numMalformedRecords", "1")
        .containsEntry("numMalformedRecordsNotKept", "1");
    assertThat(p.observedMetrics()).containsEntry("source.numMalformedRecordsNotKept", 1L);
    Table table = session.table(dir.resolve("bronze").toString());
    assertThat(table.history(1).get(0).operationMetrics()).containsEntry("source.numMalformedRecords", "1");
  }
}
