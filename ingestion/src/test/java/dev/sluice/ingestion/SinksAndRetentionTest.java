package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.internal.sink.ConsoleSink;
import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.table.data.Row;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SinksAndRetentionTest {
  @TempDir Path dir;
  SluiceSession session = SluiceSession.create();

  @AfterEach
  void tearDown() {
    session.close();
  }

  @Test
  void oldBatchLogsArePurgedBeyondTheRetention() throws Exception {
    Landing.write(dir.resolve("landing"), 0, 12, 2);
    session.readStream().format("json").schema(Landing.SCHEMA).option("maxFilesPerTrigger", "1")
        .load(dir.resolve("landing").toString())
        .writeStream().queryName("q").option("minBatchesToRetain", "3").trigger(Trigger.availableNow())
        .toTable(dir.resolve("t").toString()).awaitTermination();
    try (Stream<Path> offsets = Files.list(dir.resolve("t/_checkpoints/q/offsets"));
         Stream<Path> commits = Files.list(dir.resolve("t/_checkpoints/q/commits"))) {
      assertThat(offsets.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("9", "10", "11");
      assertThat(commits.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("9", "10", "11");
    }
    assertThat(Landing.ids(session.table(dir.resolve("t").toString()))).hasSize(24);
  }

  @Test
  void completeModeOverwritesTheTableEachBatchWithTheWholeAggregate() {
    MemoryStream input = MemoryStream.named("complete-in", Landing.SCHEMA);
    StreamingQuery q = session.readStream().format("memory").option("name", "complete-in").load()
        .groupBy("status").agg("count(*) AS n", "sum(amount) AS total")
        .writeStream().outputMode("complete").queryName("complete").toTable(dir.resolve("totals").toString());
    input.addData(Row.of(1L, "open", 1.0), Row.of(2L, "paid", 2.0));
    q.processAllAvailable();
    input.addData(Row.of(3L, "open", 3.0));
    q.processAllAvailable();
    q.stop();
    var table = session.table(dir.resolve("totals").toString());
    var rows = table.latestSnapshot().scan().build().rows().toList();
    assertThat(rows).containsExactlyInAnyOrder(Row.of("open", 2L, 4.0), Row.of("paid", 1L, 2.0));
    assertThat(table.history(1).get(0).operationParameters()).containsEntry("mode", "Overwrite");
    assertThat(q.lastProgress().orElseThrow().stateOperators()).singleElement()
        .satisfies(s -> assertThat(s.numRowsTotal()).isEqualTo(2));
    MemoryStream.remove("complete-in");
  }

  @Test
  void consoleTableIsReadable() {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    ConsoleSink sink = new ConsoleSink(new PrintStream(buffer, true, StandardCharsets.UTF_8), 2, true);
    sink.addBatch(7, new Batch(Landing.SCHEMA, List.of(Row.of(1L, "open", 1.5), Row.of(22L, null, 3.0),
        Row.of(3L, "x", 0.0))));
    String out = buffer.toString(StandardCharsets.UTF_8);
    assertThat(out).contains("Batch: 7")
        .contains("|id|status|amount|")
        .contains("| 1|  open|   1.5|")
        .contains("|22|  null|   3.0|")
        .contains("only showing top 2 rows");
  }

  @Test
  void progressReportsRatesAndOffsets() {
    Landing.write(dir.resolve("landing"), 0, 3, 10);
    StreamingQuery q = session.readStream().format("json").schema(Landing.SCHEMA).option("maxFilesPerTrigger", "1")
        .load(dir.resolve("landing").toString()).writeStream().queryName("p").trigger(Trigger.availableNow())
        .toTable(dir.resolve("t").toString());
    q.awaitTermination();
    QueryProgress last = q.lastProgress().orElseThrow();
    assertThat(last.batchId()).isEqualTo(2);
    assertThat(last.numInputRows()).isEqualTo(10);
    assertThat(last.processedRowsPerSecond()).isPositive();
    assertThat(last.inputRowsPerSecond()).isPositive();
    assertThat(last.sources().get(0).startOffset()).isNotNull();
    assertThat(last.sink().numOutputRows()).isEqualTo(10);
    assertThat(last.durationMs()).containsKeys("latestOffset", "walCommit", "getBatch", "addBatch", "commitOffsets",
        "triggerExecution");
  }
}
