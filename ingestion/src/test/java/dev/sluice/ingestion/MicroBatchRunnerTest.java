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
  void aDeletedOffsetsFileOfACommittedBatchIsReportedAsADamagedCheckpointNotAnotherRunner() throws Exception {
    Landing.write(dir.resolve("landing"), 0, 4, 10);
    bronze(Trigger.availableNow(), "bronze").awaitTermination();
    Path checkpoint = dir.resolve("bronze/_checkpoints/bronze");
    Files.delete(checkpoint.resolve("offsets/1"));
    Landing.write(dir.resolve("landing"), 4, 5, 10);
    Table table = session.table(dir.resolve("bronze").toString());
    long version = table.latestVersion().getAsLong();

    StreamingQuery again = bronze(Trigger.availableNow(), "bronze");

    assertThatThrownBy(again::awaitTermination).isInstanceOf(StreamingQueryException.class)
        .hasMessageContaining("The checkpoint file:" + checkpoint + " is damaged: offsets/1 is missing, but commits/1"
            + " exists")
        .hasMessageContaining("Fix: restore offsets/1")
        .hasMessageContaining("or reset the checkpoint (delete the folder")
        .hasMessageNotContaining("another runner");
    assertThat(table.latestVersion().getAsLong()).as("nothing written").isEqualTo(version);
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
    boolean written = merge.call(new dev.sluice.ingestion.Batch(Landing.SCHEMA, List.of(Row.of(999L, "x", 1.0))),
        new BatchContext(q.id(), 0, java.util.Map.of()));
    assertThat(written).isFalse();
    assertThat(merge.lastResult().skipped()).isTrue();
    assertThat(Landing.ids(silver)).containsExactlyElementsOf(Landing.range(0, 30));
  }

  @Test
  void badConfigurationFailsTheStartItselfWithAnAnalysisException() {
    Landing.write(dir.resolve("landing"), 0, 1, 10);
    String landing = dir.resolve("landing").toString();
    assertThatThrownBy(() -> session.readStream().format("xml").load(landing).writeStream()
        .trigger(Trigger.once()).toTable(dir.resolve("t").toString()))
        .isInstanceOf(AnalysisException.class).hasMessageContaining("Unknown source format 'xml'")
        .hasMessageContaining("json");
    assertThatThrownBy(() -> session.readStream().format("json").schema(Landing.SCHEMA).option("maxFilez", "1")
        .load(landing).writeStream().queryName("q2").trigger(Trigger.once()).toTable(dir.resolve("t2").toString()))
        .isInstanceOf(AnalysisException.class).hasMessageContaining("maxFilez");
    assertThatThrownBy(() -> session.readStream().format("json").schema(Landing.SCHEMA)
        .load(dir.resolve("nowhere").toString()).writeStream().queryName("q3").trigger(Trigger.once())
        .toTable(dir.resolve("t3").toString()))
        .isInstanceOf(AnalysisException.class).hasMessageContaining("nowhere");
    assertThatThrownBy(() -> session.readStream().format("json").schema(Landing.SCHEMA).load(landing)
        .filter("amout > 1").writeStream().queryName("q4").trigger(Trigger.once()).toTable(dir.resolve("t4").toString()))
        .isInstanceOf(AnalysisException.class).hasMessageContaining("amout").hasMessageContaining("amount");
    assertThatThrownBy(() -> session.readStream().format("json").schema(Landing.SCHEMA).load(landing)
        .withColumn("x", "no_such_fn(amount)").writeStream().queryName("q5").trigger(Trigger.once())
        .toTable(dir.resolve("t5").toString()))
        .isInstanceOf(AnalysisException.class).hasMessageContaining("no_such_fn");
    assertThatThrownBy(() -> session.readStream().format("json").schema(Landing.SCHEMA).load(landing)
        .filter("status IS NOT NUL").writeStream().queryName("q6").trigger(Trigger.once())
        .toTable(dir.resolve("t6").toString()))
        .isInstanceOf(AnalysisException.class).hasMessageContaining("IS NOT NUL");
    assertThat(session.streams().active()).as("no failed query is left registered").isEmpty();
    assertThat(dir.resolve("t4/_delta_log")).as("no table is written by a query that can't run").doesNotExist();
    assertThatThrownBy(() -> session.readStream().format("json").load(dir.toString()).writeStream().option("nope", "1"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("checkpointLocation");
  }

  @Test
  void aQueryThatFailedToStartCanBeStartedAgainOnceFixed() {
    Landing.write(dir.resolve("landing"), 0, 1, 10);
    String landing = dir.resolve("landing").toString();
    assertThatThrownBy(() -> session.readStream().format("json").schema(Landing.SCHEMA).load(landing)
        .dropDuplicates("idd").writeStream().queryName("q").trigger(Trigger.once())
        .toTable(dir.resolve("t").toString()))
        .isInstanceOf(AnalysisException.class).hasMessageContaining("idd");
    StreamingQuery fixed = session.readStream().format("json").schema(Landing.SCHEMA).load(landing)
        .dropDuplicates("id").writeStream().queryName("q").trigger(Trigger.once())
        .toTable(dir.resolve("t").toString());
    assertThat(fixed.awaitTermination(Duration.ofSeconds(60))).isTrue();
    assertThat(fixed.exception()).isEmpty();
    assertThat(fixed.lastProgress().orElseThrow().numInputRows()).isEqualTo(10);
  }

  @Test
  void aSinkWithoutATableRefusesAPath() {
    MemoryStream.named("console-in", Landing.SCHEMA);
    try {
      assertThatThrownBy(() -> session.readStream().format("memory").option("name", "console-in").load()
          .writeStream().format("console").start(dir.resolve("t").toString()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("The console sink writes no table, so it takes no path (got '" + dir.resolve("t") + "'): call"
              + " start() without a path, or format(\"delta\") / toTable(path) to write a Delta table there");
      assertThatThrownBy(() -> session.readStream().format("memory").option("name", "console-in").load()
          .writeStream().foreachBatch((batch, id) -> { }).option("checkpointLocation", dir.resolve("ck").toString())
          .start(dir.resolve("t").toString()))
          .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("The foreachBatch sink writes no table");
      assertThat(dir.resolve("t")).doesNotExist();
    } finally {
      MemoryStream.remove("console-in");
    }
  }

  @Test
  void aDdlSchemaStringReadsTheFilesWithThoseTypes() {
    Landing.write(dir.resolve("landing"), 0, 1, 3);
    StreamingQuery q = session.readStream().format("json")
        .schema("`id` BIGINT NOT NULL, status VARCHAR(10), amount DECIMAL(10,2)")
        .load(dir.resolve("landing").toString())
        .writeStream().format("memory").queryName("ddl_out").trigger(Trigger.once())
        .option("checkpointLocation", dir.resolve("ck").toString()).start();
    q.awaitTermination();
    assertThat(q.exception()).isEmpty();
    assertThat(session.memoryTable("ddl_out")).extracting(r -> r.get(0), r -> r.get(2)).containsExactly(
        org.assertj.core.groups.Tuple.tuple(0L, new java.math.BigDecimal("0.00")),
        org.assertj.core.groups.Tuple.tuple(1L, new java.math.BigDecimal("1.50")),
        org.assertj.core.groups.Tuple.tuple(2L, new java.math.BigDecimal("3.00")));
    assertThatThrownBy(() -> session.readStream().format("json").schema("id BIGINT, amount MONEY"))
        .isInstanceOf(AnalysisException.class)
        .hasMessageStartingWith("Cannot read the schema 'id BIGINT, amount MONEY': unknown type `money`");
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
