package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.table.HistoryEntry;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MicroBatchRunnerTest {
  @TempDir Path dir;
  SluiceSession session = SluiceSession.create();

  @AfterEach
  void tearDown() {
    session.close();
  }

  private StreamingQuery bronze(Trigger trigger, String name) {
    return session.readStream().format("json").schema(Landing.SCHEMA).option("maxFilesPerTrigger", "2")
        .load(dir.resolve("landing").toString())
        .filter("status <> 'test'")
        .withColumn("amount_cents", "CAST(amount * 100 AS BIGINT)")
        .writeStream().queryName(name).trigger(trigger).toTable(dir.resolve("bronze").toString());
  }

  @Test
  void availableNowProcessesTheBacklogInRateLimitedBatchesAndStops() {
    Landing.write(dir.resolve("landing"), 0, 5, 10);
    StreamingQuery q = bronze(Trigger.availableNow(), "bronze");
    assertThat(q.awaitTermination(Duration.ofSeconds(60))).isTrue();
    assertThat(q.exception()).isEmpty();
    assertThat(q.recentProgress()).hasSize(3);
    assertThat(q.recentProgress().get(0).numInputRows()).isEqualTo(20);
    Table table = session.table(dir.resolve("bronze").toString());
    List<Long> expected = new ArrayList<>();
    Landing.range(0, 50).stream().filter(i -> i % 5 != 0).forEach(expected::add);
    assertThat(Landing.ids(table)).containsExactlyElementsOf(expected);
    assertThat(table.latestSnapshot().schema().fieldNames()).containsExactly("id", "status", "amount", "amount_cents");
    HistoryEntry last = table.history(1).get(0);
    assertThat(last.operation()).isEqualTo("STREAMING UPDATE");
    assertThat(table.transactionVersion(q.id().toString())).hasValue(2);
    assertThat(dir.resolve("bronze/_checkpoints/bronze/offsets/2")).exists();
    assertThat(dir.resolve("bronze/_checkpoints/bronze/commits/2")).exists();
  }

  @Test
  void restartContinuesWhereTheQueryStoppedWithTheSameId() {
    Landing.write(dir.resolve("landing"), 0, 2, 10);
    StreamingQuery first = bronze(Trigger.availableNow(), "bronze");
    first.awaitTermination();
    Landing.write(dir.resolve("landing"), 2, 4, 10);
    StreamingQuery second = bronze(Trigger.availableNow(), "bronze");
    second.awaitTermination();
    assertThat(second.id()).isEqualTo(first.id());
    assertThat(second.runId()).isNotEqualTo(first.runId());
    assertThat(second.recentProgress()).hasSize(1);
    assertThat(second.recentProgress().get(0).batchId()).isEqualTo(1);
    assertThat(Landing.ids(session.table(dir.resolve("bronze").toString()))).hasSize(32);
  }

  @Test
  void onceTakesEverythingInOneBatch() {
    Landing.write(dir.resolve("landing"), 0, 5, 10);
    StreamingQuery q = bronze(Trigger.once(), "once");
    q.awaitTermination();
    assertThat(q.recentProgress()).hasSize(1);
    assertThat(q.lastProgress().orElseThrow().numInputRows()).isEqualTo(50);
  }

  @Test
  void continuousQueryPicksUpNewFilesAndStopsGracefully() throws Exception {
    Files.createDirectories(dir.resolve("landing"));
    List<QueryProgress> heard = new CopyOnWriteArrayList<>();
    session.streams().addListener(new StreamingQueryListener() {
      @Override
      public void onQueryProgress(StreamingQuery query, QueryProgress progress) {
        heard.add(progress);
      }
    });
    StreamingQuery q = bronze(Trigger.processingTime(Duration.ofMillis(50)), "continuous");
    Landing.write(dir.resolve("landing"), 0, 1, 10);
    q.processAllAvailable();
    Landing.write(dir.resolve("landing"), 1, 3, 10);
    q.processAllAvailable();
    assertThat(session.streams().active()).containsExactly(q);
    q.stop();
    assertThat(q.isActive()).isFalse();
    assertThat(session.streams().active()).isEmpty();
    assertThat(Landing.ids(session.table(dir.resolve("bronze").toString()))).hasSize(24);
    assertThat(heard).isNotEmpty();
    QueryProgress p = q.lastProgress().orElseThrow();
    assertThat(p.json()).contains("\"batchId\"", "\"durationMs\"", "\"triggerExecution\"", "\"walCommit\"",
        "\"sources\"", "\"sink\"", "\"numOutputRows\"", "\"endOffset\"");
    assertThat(p.sources().get(0).description()).contains("landing");
  }

  @Test
  void memorySourceToMemorySink() {
    MemoryStream input = MemoryStream.named("orders-in", Landing.SCHEMA);
    StreamingQuery q = session.readStream().format("memory").option("name", "orders-in").load()
        .select("id", "amount * 2 AS doubled")
        .writeStream().format("memory").queryName("orders_out")
        .option("checkpointLocation", dir.resolve("ck").toString()).start();
    input.addData(Row.of(1L, "open", 2.0), Row.of(2L, "open", 3.0));
    q.processAllAvailable();
    input.addData(Row.of(3L, "open", 4.0));
    q.processAllAvailable();
    q.stop();
    assertThat(session.memoryTable("orders_out")).containsExactly(Row.of(1L, 4.0), Row.of(2L, 6.0), Row.of(3L, 8.0));
    MemoryStream.remove("orders-in");
  }

  @Test
  void foreachBatchMergeIsIdempotentPerBatch() {
    Landing.write(dir.resolve("landing"), 0, 3, 10);
    Table silver = session.table(dir.resolve("silver").toString());
    MergeIntoTable merge = MergeIntoTable.into(silver, "silver-orders", "id");
    StreamingQuery q = session.readStream().format("json").schema(Landing.SCHEMA).load(dir.resolve("landing").toString())
        .writeStream().foreachBatch(merge).trigger(Trigger.availableNow())
        .option("checkpointLocation", dir.resolve("ck").toString()).start();
    q.awaitTermination();
    assertThat(Landing.ids(silver)).containsExactlyElementsOf(Landing.range(0, 30));
    // the same batch again (as after a crash before commits/N): skipped by the MERGE's txn
    merge.call(new dev.sluice.ingestion.Batch(Landing.SCHEMA, List.of(Row.of(999L, "x", 1.0))), 0);
    assertThat(merge.lastResult().skipped()).isTrue();
    assertThat(Landing.ids(silver)).containsExactlyElementsOf(Landing.range(0, 30));
  }

  @Test
  void badConfigurationIsReportedClearly() {
    assertThatThrownBy(() -> session.readStream().format("xml").load(dir.toString()).writeStream()
        .trigger(Trigger.once()).toTable(dir.resolve("t").toString()).awaitTermination())
        .isInstanceOf(StreamingQueryException.class).hasMessageContaining("xml").hasMessageContaining("json");
    assertThatThrownBy(() -> session.readStream().format("json").schema(Landing.SCHEMA).option("maxFilez", "1")
        .load(dir.toString()).writeStream().queryName("q2").trigger(Trigger.once()).toTable(dir.resolve("t2").toString())
        .awaitTermination())
        .isInstanceOf(StreamingQueryException.class).hasMessageContaining("maxFilez");
    assertThatThrownBy(() -> session.readStream().format("json").schema(Landing.SCHEMA)
        .load(dir.resolve("nowhere").toString()).writeStream().queryName("q3").trigger(Trigger.once())
        .toTable(dir.resolve("t3").toString()).awaitTermination())
        .isInstanceOf(StreamingQueryException.class).hasMessageContaining("nowhere");
    assertThatThrownBy(() -> session.readStream().format("json").schema(Landing.SCHEMA).load(dir.toString())
        .filter("amout > 1").writeStream().queryName("q4").trigger(Trigger.once()).toTable(dir.resolve("t4").toString())
        .awaitTermination())
        .isInstanceOf(StreamingQueryException.class).hasMessageContaining("amout").hasMessageContaining("amount");
    assertThatThrownBy(() -> session.readStream().format("json").load(dir.toString()).writeStream().option("nope", "1"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("checkpointLocation");
  }

  @Test
  void aSecondRunnerOfTheSameQueryFailsAndTheFirstIsUnharmed() throws Exception {
    Files.createDirectories(dir.resolve("landing"));
    StreamingQuery first = bronze(Trigger.processingTime(Duration.ofMillis(50)), "bronze");
    // same JVM, same session: refused by the manager
    assertThatThrownBy(() -> bronze(Trigger.processingTime(Duration.ofMillis(50)), "bronze"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("already running");
    // another session (as another process would): refused by the checkpoint's runner lease
    try (SluiceSession other = SluiceSession.create()) {
      assertThatThrownBy(() -> other.readStream().format("json").schema(Landing.SCHEMA)
          .load(dir.resolve("landing").toString()).writeStream().queryName("bronze")
          .trigger(Trigger.availableNow()).toTable(dir.resolve("bronze").toString()))
          .hasMessageContaining("already running").hasMessageContaining("Only one runner");
    }
    Landing.write(dir.resolve("landing"), 0, 2, 10);
    first.processAllAvailable();
    assertThat(first.isActive()).isTrue();
    first.stop();
    assertThat(first.exception()).isEmpty();
    assertThat(Landing.ids(session.table(dir.resolve("bronze").toString()))).hasSize(16);
  }
}
