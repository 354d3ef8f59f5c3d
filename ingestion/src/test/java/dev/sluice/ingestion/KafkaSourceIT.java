package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import dev.sluice.table.data.Row;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Kafka source against a real in-process KRaft broker: exactly-once into Delta across a crash and restart,
 * partitions and pattern topics that appear while a query runs, offsets removed before they were read (both
 * {@code failOnDataLoss} settings), {@code availableNow} bounded by the ends fixed at start, and the rate limits.
 */
class KafkaSourceIT {
  @RegisterExtension static final KraftBroker broker = KraftBroker.perClass();
  @TempDir Path dir;

  @AfterEach
  void clear() {
    BatchInterceptor.REGISTRY.clear();
  }

  /** Values {@code from..to-1} as decimal strings, spread over the partitions by key. */
  private static void send(String topic, long from, long to) {
    broker.send(topic, null, null, LongStream.range(from, to).mapToObj(Long::toString).toList());
  }

  private DataStreamReader kafka(SluiceSession session) {
    return session.readStream().format("kafka").option("kafka.bootstrap.servers", broker.bootstrap())
        .option("startingOffsets", "earliest");
  }

  private StreamingQuery toDelta(DataStreamReader reader, Trigger trigger) {
    return reader.load().selectExpr("CAST(CAST(value AS STRING) AS LONG) AS id", "topic", "partition", "offset")
        .writeStream().queryName("q").trigger(trigger).option("checkpointLocation", dir.resolve("ckpt").toString())
        .toTable(dir.resolve("out").toString());
  }

  private List<Long> ids(SluiceSession session) {
    List<Long> out = new ArrayList<>();
    // The folder appears before the table's first commit (the query's checkpoint lives beside it).
    Table table = session.table(dir.resolve("out").toString());
    if (!table.exists()) {
      return out;
    }
    try (CloseableIterator<Row> it = table.latestSnapshot().scan().select("id").build().rows()) {
      it.forEachRemaining(r -> out.add((Long) r.get(0)));
    }
    return out.stream().sorted().toList();
  }

  private static List<Long> range(long from, long to) {
    return LongStream.range(from, to).boxed().toList();
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Timed out waiting for " + what);
      }
      Thread.sleep(50);
    }
  }

  @ParameterizedTest
  @EnumSource(value = BatchInterceptor.Step.class, names = {"AFTER_OFFSETS", "BEFORE_SINK", "AFTER_SINK"})
  void exactlyOnceIntoDeltaAcrossCrashAndRestart(BatchInterceptor.Step crashAt) throws Exception {
    String topic = broker.newTopic("src", 3);
    send(topic, 0, 300);
    AtomicBoolean crashed = new AtomicBoolean();
    BatchInterceptor.REGISTRY.put("q", (step, batchId) -> {
      if (step == crashAt && batchId == 1 && crashed.compareAndSet(false, true)) {
        throw new IllegalStateException("injected crash at " + step);
      }
    });
    try (SluiceSession session = SluiceSession.create()) {
      DataStreamReader reader = kafka(session).option("subscribe", topic).option("maxOffsetsPerTrigger", "70");
      StreamingQuery first = toDelta(reader, Trigger.availableNow());
      assertThatThrownBy(first::awaitTermination).isInstanceOf(StreamingQueryException.class)
          .hasMessageContaining("injected crash");
      StreamingQuery second = toDelta(reader, Trigger.availableNow());
      second.awaitTermination();
      assertThat(ids(session)).containsExactlyElementsOf(range(0, 300));
      send(topic, 300, 400);
      toDelta(reader, Trigger.availableNow()).awaitTermination();
      assertThat(ids(session)).containsExactlyElementsOf(range(0, 400));
    }
    // Spark's offset JSON, per topic and partition, in the write-ahead log
    String offsets = Files.readString(dir.resolve("ckpt/offsets/0"));
    assertThat(offsets).contains("{\"" + topic + "\":{\"0\":");
  }

  @Test
  void availableNowStopsAtTheEndsFixedAtStart() throws Exception {
    String topic = broker.newTopic("src", 2);
    send(topic, 0, 100);
    BatchInterceptor.REGISTRY.put("q", (step, batchId) -> {
      if (step == BatchInterceptor.Step.AFTER_OFFSETS && batchId == 0) {
        send(topic, 100, 150); // arrives after the query fixed its ends
      }
    });
    try (SluiceSession session = SluiceSession.create()) {
      StreamingQuery q = toDelta(kafka(session).option("subscribe", topic).option("maxOffsetsPerTrigger", "10"),
          Trigger.availableNow());
      q.awaitTermination();
      assertThat(ids(session)).containsExactlyElementsOf(range(0, 100));
      assertThat(q.recentProgress()).hasSizeGreaterThanOrEqualTo(10)
          .allSatisfy(p -> assertThat(p.numInputRows()).isLessThanOrEqualTo(10));
      QueryProgress.SourceProgress firstBatch = q.recentProgress().get(0).sources().get(0);
      assertThat(Long.parseLong(firstBatch.metrics().get("maxOffsetsBehindLatest"))).isPositive();
      assertThat(firstBatch.metrics()).containsKeys("minOffsetsBehindLatest", "avgOffsetsBehindLatest");
      assertThat(q.lastProgress().orElseThrow().sources().get(0).metrics()).containsEntry("maxOffsetsBehindLatest", "0");
    }
  }

  @Test
  void onceTakesTheBacklogInOneBatchIgnoringTheRateLimit() throws Exception {
    String topic = broker.newTopic("src", 2);
    send(topic, 0, 100);
    try (SluiceSession session = SluiceSession.create()) {
      StreamingQuery q = toDelta(kafka(session).option("subscribe", topic).option("maxOffsetsPerTrigger", "10"),
          Trigger.once());
      q.awaitTermination();
      assertThat(ids(session)).containsExactlyElementsOf(range(0, 100));
      assertThat(q.recentProgress()).extracting(QueryProgress::numInputRows).containsExactly(100L);
    }
  }

  @Test
  void picksUpPartitionsAndPatternTopicsAddedWhileRunning() throws Exception {
    String topic = broker.newTopic("pat", 1) + "-a";
    broker.createTopic(topic, 1);
    send(topic, 0, 10);
    try (SluiceSession session = SluiceSession.create()) {
      StreamingQuery q = toDelta(kafka(session).option("subscribePattern", topic.replace("-a", "-.*")),
          Trigger.processingTime(Duration.ofMillis(100)));
      await("the first records", () -> ids(session).size() == 10);
      broker.addPartitions(topic, 3);
      broker.send(topic, 2, null, List.of("10", "11"));
      broker.createTopic(topic.replace("-a", "-b"), 1);
      broker.send(topic.replace("-a", "-b"), 0, null, List.of("12", "13", "14"));
      await("records of the new partition and topic", () -> ids(session).size() >= 15);
      q.stop();
      assertThat(ids(session)).containsExactlyElementsOf(range(0, 15));
    }
  }

  @Test
  void failOnDataLossStopsTheQueryNamingTheLostRange() throws Exception {
    String topic = broker.newTopic("src", 1);
    send(topic, 0, 30);
    try (SluiceSession session = SluiceSession.create()) {
      DataStreamReader reader = kafka(session).option("subscribe", topic);
      toDelta(reader, Trigger.availableNow()).awaitTermination();
      send(topic, 30, 100);
      broker.deleteRecordsBefore(topic, 0, 60);
      StreamingQuery q = toDelta(reader, Trigger.availableNow());
      assertThatThrownBy(q::awaitTermination).isInstanceOf(StreamingQueryException.class)
          .hasMessageContaining("Kafka topic '" + topic + "' partition 0")
          .hasMessageContaining("offsets [30, 60) are lost")
          .hasMessageContaining("failOnDataLoss=false");
      assertThat(ids(session)).containsExactlyElementsOf(range(0, 30));
    }
  }

  @Test
  void withoutFailOnDataLossLostOffsetsAreSkippedAndCounted() throws Exception {
    String topic = broker.newTopic("src", 1);
    send(topic, 0, 30);
    try (SluiceSession session = SluiceSession.create()) {
      DataStreamReader reader = kafka(session).option("subscribe", topic).option("failOnDataLoss", "false");
      toDelta(reader, Trigger.availableNow()).awaitTermination();
      send(topic, 30, 100);
      broker.deleteRecordsBefore(topic, 0, 60);
      StreamingQuery q = toDelta(reader, Trigger.availableNow());
      q.awaitTermination();
      List<Long> expected = new ArrayList<>(range(0, 30));
      expected.addAll(range(60, 100));
      assertThat(ids(session)).containsExactlyElementsOf(expected);
      assertThat(q.lastProgress().orElseThrow().sources().get(0).metrics()).containsEntry("lostOffsets", "30");
    }
  }

  @Test
  void minOffsetsPerTriggerWaitsUntilMaxTriggerDelay() throws Exception {
    String topic = broker.newTopic("src", 2);
    send(topic, 0, 10);
    try (SluiceSession session = SluiceSession.create()) {
      long started = System.nanoTime();
      StreamingQuery q = toDelta(kafka(session).option("subscribe", topic).option("minOffsetsPerTrigger", "50")
          .option("maxTriggerDelay", "2s"), Trigger.processingTime(Duration.ofMillis(100)));
      await("the delayed batch", () -> ids(session).size() == 10);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
      send(topic, 10, 70);
      await("the full batch", () -> ids(session).size() == 70);
      q.stop();
      assertThat(q.recentProgress()).allSatisfy(p -> assertThat(p.numInputRows()).isIn(0L, 10L, 60L));
    }
  }

  @Test
  void rowsCarryKafkasColumnsAndHeaders() throws Exception {
    String topic = broker.newTopic("src", 1);
    broker.send(topic, 0, "k1", List.of("hello"));
    try (SluiceSession session = SluiceSession.create()) {
      StreamingQuery q = session.readStream().format("kafka").option("kafka.bootstrap.servers", broker.bootstrap())
          .option("assign", "{\"" + topic + "\":[0]}").option("startingOffsets", "{\"" + topic + "\":{\"0\":-2}}")
          .option("includeHeaders", "true").load()
          .selectExpr("CAST(key AS STRING) AS k", "CAST(value AS STRING) AS v", "topic", "partition", "offset",
              "timestamp", "timestampType", "headers")
          .writeStream().format("memory").queryName("rows").trigger(Trigger.availableNow()).start();
      q.awaitTermination();
      Row row = session.memoryTable("rows").get(0);
      assertThat(row.get(0)).isEqualTo("k1");
      assertThat(row.get(1)).isEqualTo("hello");
      assertThat(row.get(2)).isEqualTo(topic);
      assertThat(row.get(3)).isEqualTo(0);
      assertThat(row.get(4)).isEqualTo(0L);
      assertThat(row.get(5)).isNotNull();
      assertThat(row.get(6)).isEqualTo(0);
      assertThat((List<?>) row.get(7)).isEmpty();
    }
  }

  @Test
  void badOptionsAreRefusedNamingTheFix() {
    try (SluiceSession session = SluiceSession.create()) {
      assertThatThrownBy(() -> session.readStream().format("kafka").option("subscribe", "t").load()
          .writeStream().format("memory").queryName("x").start())
          .isInstanceOf(AnalysisException.class).hasMessageContaining("kafka.bootstrap.servers");
      assertThatThrownBy(() -> kafka(session).option("subscribe", "t").option("assign", "{\"t\":[0]}").load()
          .writeStream().format("memory").queryName("x").start())
          .isInstanceOf(AnalysisException.class).hasMessageContaining("exactly one of");
      assertThatThrownBy(() -> kafka(session).option("subscribe", "t").option("kafka.auto.offset.reset", "earliest")
          .load().writeStream().format("memory").queryName("x").start())
          .isInstanceOf(AnalysisException.class).hasMessageContaining("use startingOffsets");
      assertThatThrownBy(() -> kafka(session).option("subscribe", "t").option("maxOffsetsPerTriger", "5")
          .load().writeStream().format("memory").queryName("x").start())
          .isInstanceOf(AnalysisException.class).hasMessageContaining("maxOffsetsPerTriger");
    }
  }
}
