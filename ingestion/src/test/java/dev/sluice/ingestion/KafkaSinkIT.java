package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import dev.sluice.ingestion.internal.sink.SinkInterceptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Kafka sink against a real in-process KRaft broker: at-least-once delivery (and its duplicates after a
 * crash), exactly-once with transactions after a crash at every step of the protocol, fencing of a zombie writer,
 * and the refusals of bad columns and options.
 */
class KafkaSinkIT {
  @RegisterExtension static final KraftBroker broker = KraftBroker.perClass();
  @TempDir Path dir;

  @AfterEach
  void clear() {
    BatchInterceptor.REGISTRY.clear();
    SinkInterceptor.REGISTRY.clear();
  }

  private StreamingQuery run(SluiceSession session, String topic, String guarantee) {
    return session.readStream().format("json").schema(Landing.SCHEMA).option("maxFilesPerTrigger", "2")
        .load(dir.resolve("landing").toString())
        .selectExpr("CAST(id AS STRING) AS value", "status AS key")
        .writeStream().format("kafka").queryName("q").trigger(Trigger.availableNow())
        .option("kafka.bootstrap.servers", broker.bootstrap()).option("topic", topic)
        .option("deliveryGuarantee", guarantee).option("checkpointLocation", dir.resolve("ckpt").toString())
        .start();
  }

  private static List<Long> ids(List<ConsumerRecord<byte[], byte[]>> records) {
    return records.stream().map(r -> Long.parseLong(new String(r.value(), StandardCharsets.UTF_8))).sorted().toList();
  }

  @Test
  void atLeastOnceDeliversEveryRowWithKeyAndValue() throws Exception {
    String topic = broker.newTopic("t", 3);
    Landing.write(dir.resolve("landing"), 0, 6, 10);
    try (SluiceSession session = SluiceSession.create()) {
      StreamingQuery q = run(session, topic, "at_least_once");
      q.awaitTermination();
      assertThat(q.lastProgress().orElseThrow().sink().description()).isEqualTo("KafkaSink[" + topic + ", at_least_once]");
    }
    List<ConsumerRecord<byte[], byte[]>> records = broker.readCommitted(topic);
    assertThat(ids(records)).containsExactlyElementsOf(Landing.range(0, 60));
    for (ConsumerRecord<byte[], byte[]> r : records) {
      long id = Long.parseLong(new String(r.value(), StandardCharsets.UTF_8));
      assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(id % 5 == 0 ? "test" : "open");
    }
  }

  @Test
  void atLeastOnceSendsABatchAgainAfterACrashBeforeCommitsN() throws Exception {
    String topic = broker.newTopic("t", 1);
    Landing.write(dir.resolve("landing"), 0, 6, 10);
    crashOnce(BatchInterceptor.Step.AFTER_SINK);
    try (SluiceSession session = SluiceSession.create()) {
      assertThatThrownBy(run(session, topic, "at_least_once")::awaitTermination)
          .isInstanceOf(StreamingQueryException.class).hasMessageContaining("injected");
      run(session, topic, "at_least_once").awaitTermination();
    }
    // Spark's guarantee: batch 1 (files 2-3, ids 20-39) was sent before the crash and again by the re-run
    List<Long> expected = new java.util.ArrayList<>(Landing.range(0, 60));
    expected.addAll(Landing.range(20, 40));
    assertThat(ids(broker.readCommitted(topic))).containsExactlyElementsOf(expected.stream().sorted().toList());
  }

  private static void crashOnce(BatchInterceptor.Step at) {
    AtomicBoolean crashed = new AtomicBoolean();
    BatchInterceptor.REGISTRY.put("q", (step, batchId) -> {
      if (step == at && batchId == 1 && crashed.compareAndSet(false, true)) {
        throw new IllegalStateException("injected crash at " + step + " of batch " + batchId);
      }
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {"AFTER_OFFSETS", "BEFORE_SINK", "DATA_WRITTEN", "AFTER_SINK", "AFTER_COMMIT"})
  void exactlyOnceAfterACrashAtEachStep(String crashAt) throws Exception {
    String topic = broker.newTopic("t", 2);
    Landing.write(dir.resolve("landing"), 0, 6, 10);
    if (crashAt.equals("DATA_WRITTEN")) {
      AtomicBoolean crashed = new AtomicBoolean();
      SinkInterceptor.REGISTRY.put("q", (step, batchId) -> {
        if (batchId == 1 && crashed.compareAndSet(false, true)) {
          throw new IllegalStateException("injected crash at " + step + " of batch " + batchId);
        }
      });
    } else {
      crashOnce(BatchInterceptor.Step.valueOf(crashAt));
    }
    try (SluiceSession session = SluiceSession.create()) {
      assertThatThrownBy(run(session, topic, "exactly_once")::awaitTermination)
          .isInstanceOf(StreamingQueryException.class).hasMessageContaining("injected crash at " + crashAt);
      StreamingQuery second = run(session, topic, "exactly_once");
      second.awaitTermination();
      if (crashAt.equals("AFTER_SINK")) {
        // the transaction of batch 1 had committed: the re-run found its marker and skipped it
        assertThat(second.recentProgress().get(0).sink().alreadyCommitted()).isTrue();
      }
    }
    assertThat(ids(broker.readCommitted(topic))).containsExactlyElementsOf(Landing.range(0, 60));
    if (crashAt.equals("DATA_WRITTEN")) {
      // the crashed attempt's records are in the log, aborted: only read_uncommitted consumers see them
      assertThat(broker.readUncommitted(topic)).hasSize(80);
    }
  }

  @Test
  void aRestartFencesAZombieWriterAndAbortsItsOpenTransaction() throws Exception {
    String topic = broker.newTopic("t", 1);
    Landing.write(dir.resolve("landing"), 0, 2, 10);
    String queryId;
    try (SluiceSession session = SluiceSession.create()) {
      StreamingQuery first = run(session, topic, "exactly_once");
      first.awaitTermination();
      queryId = first.id().toString();
    }
    // a writer left over from an earlier run of the query, in the middle of a transaction
    KafkaProducer<byte[], byte[]> zombie = new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrap(),
        "transactional.id", "sluice-sink-" + queryId), new ByteArraySerializer(), new ByteArraySerializer());
    try {
      zombie.initTransactions();
      zombie.beginTransaction();
      zombie.send(new ProducerRecord<>(topic, "999".getBytes(StandardCharsets.UTF_8)));
      zombie.flush();
      Landing.write(dir.resolve("landing"), 2, 4, 10);
      try (SluiceSession session = SluiceSession.create()) {
        run(session, topic, "exactly_once").awaitTermination();
      }
      assertThatThrownBy(zombie::commitTransaction).isInstanceOf(ProducerFencedException.class);
    } finally {
      zombie.close(java.time.Duration.ZERO);
    }
    assertThat(ids(broker.readCommitted(topic))).containsExactlyElementsOf(Landing.range(0, 40));
    assertThat(ids(broker.readUncommitted(topic))).contains(999L);
  }

  @Test
  void aRunFencedByANewerWriterStopsWithoutCommittingAndTheRestartWritesOnce() throws Exception {
    String topic = broker.newTopic("t", 1);
    Landing.write(dir.resolve("landing"), 0, 6, 10);
    KafkaProducer<?, ?>[] usurper = new KafkaProducer<?, ?>[1];
    try (SluiceSession session = SluiceSession.create()) {
      StreamingQuery[] first = new StreamingQuery[1];
      SinkInterceptor.REGISTRY.put("q", (step, batchId) -> {
        if (batchId == 1 && usurper[0] == null) {
          usurper[0] = new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrap(),
              "transactional.id", "sluice-sink-" + first[0].id()), new ByteArraySerializer(), new ByteArraySerializer());
          usurper[0].initTransactions();
        }
      });
      first[0] = run(session, topic, "exactly_once");
      assertThatThrownBy(first[0]::awaitTermination).isInstanceOf(StreamingQueryException.class)
          .hasMessageContaining("Another writer took over Kafka transactional id sluice-sink-" + first[0].id())
          .hasMessageContaining("batch 1");
      usurper[0].close();
      SinkInterceptor.REGISTRY.clear();
      run(session, topic, "exactly_once").awaitTermination();
    }
    assertThat(ids(broker.readCommitted(topic))).containsExactlyElementsOf(Landing.range(0, 60));
  }

  @Test
  void topicAndPartitionColumnsRouteEachRow() throws Exception {
    String even = broker.newTopic("t", 2);
    String odd = broker.newTopic("t", 2);
    Landing.write(dir.resolve("landing"), 0, 2, 10);
    try (SluiceSession session = SluiceSession.create()) {
      session.readStream().format("json").schema(Landing.SCHEMA).load(dir.resolve("landing").toString())
          .selectExpr("CAST(id AS STRING) AS value", "CASE WHEN id % 2 = 0 THEN '" + even + "' ELSE '" + odd
              + "' END AS topic", "CAST(1 AS INT) AS partition")
          .writeStream().format("kafka").queryName("routed").trigger(Trigger.availableNow())
          .option("kafka.bootstrap.servers", broker.bootstrap()).option("deliveryGuarantee", "exactly_once")
          .option("checkpointLocation", dir.resolve("ckpt").toString()).start().awaitTermination();
    }
    List<ConsumerRecord<byte[], byte[]>> evens = broker.readCommitted(even);
    assertThat(ids(evens)).containsExactlyElementsOf(Landing.range(0, 20).stream().filter(i -> i % 2 == 0).toList());
    assertThat(evens).allMatch(r -> r.partition() == 1);
    assertThat(ids(broker.readCommitted(odd))).containsExactlyElementsOf(
        Landing.range(0, 20).stream().filter(i -> i % 2 == 1).toList());
  }

  @Test
  void headersColumnBecomesRecordHeaders() throws Exception {
    String topic = broker.newTopic("t", 1);
    Landing.write(dir.resolve("landing"), 0, 1, 3);
    dev.sluice.table.types.StructType header = dev.sluice.table.types.StructType.of(
        dev.sluice.table.types.StructField.of("key", dev.sluice.table.types.PrimitiveType.STRING),
        dev.sluice.table.types.StructField.of("value", dev.sluice.table.types.PrimitiveType.BINARY));
    dev.sluice.table.types.StructType out = dev.sluice.table.types.StructType.of(
        dev.sluice.table.types.StructField.of("value", dev.sluice.table.types.PrimitiveType.STRING),
        dev.sluice.table.types.StructField.of("headers", new dev.sluice.table.types.ArrayType(header, false)));
    try (SluiceSession session = SluiceSession.create()) {
      session.readStream().format("json").schema(Landing.SCHEMA).load(dir.resolve("landing").toString())
          .mapBatches("with headers", new BatchTransformer() {
            @Override
            public dev.sluice.table.types.StructType outputSchema(dev.sluice.table.types.StructType input) {
              return out;
            }

            @Override
            public Batch apply(Batch batch, Context context) {
              return new Batch(out, batch.rows().stream().map(r -> dev.sluice.table.data.Row.of(
                  String.valueOf(r.get(0)), List.of(dev.sluice.table.data.Row.of("source",
                      ((String) r.get(1)).getBytes(StandardCharsets.UTF_8))))).toList());
            }
          })
          .writeStream().format("kafka").trigger(Trigger.availableNow())
          .option("kafka.bootstrap.servers", broker.bootstrap()).option("topic", topic)
          .option("checkpointLocation", dir.resolve("ckpt").toString()).start().awaitTermination();
    }
    List<ConsumerRecord<byte[], byte[]>> records = broker.readCommitted(topic);
    assertThat(records).hasSize(3);
    for (ConsumerRecord<byte[], byte[]> r : records) {
      long id = Long.parseLong(new String(r.value(), StandardCharsets.UTF_8));
      assertThat(new String(r.headers().lastHeader("source").value(), StandardCharsets.UTF_8))
          .isEqualTo(id % 5 == 0 ? "test" : "open");
    }
  }

  @Test
  void aStreamWithoutValueFailsWithSparksMessage() throws Exception {
    String topic = broker.newTopic("t", 1);
    Landing.write(dir.resolve("landing"), 0, 1, 10);
    try (SluiceSession session = SluiceSession.create()) {
      StreamingQuery q = session.readStream().format("json").schema(Landing.SCHEMA)
          .load(dir.resolve("landing").toString())
          .writeStream().format("kafka").trigger(Trigger.availableNow())
          .option("kafka.bootstrap.servers", broker.bootstrap()).option("topic", topic)
          .option("checkpointLocation", dir.resolve("ckpt").toString()).start();
      assertThatThrownBy(q::awaitTermination).isInstanceOf(StreamingQueryException.class)
          .hasMessageContaining("Required attribute 'value' not found").hasMessageContaining("[id, status, amount]");
    }
  }

  @Test
  void optionsTheSinkOwnsAreRefusedAtStart() {
    Landing.write(dir.resolve("landing"), 0, 1, 10);
    try (SluiceSession session = SluiceSession.create()) {
      DataStreamWriter w = session.readStream().format("json").schema(Landing.SCHEMA)
          .load(dir.resolve("landing").toString()).selectExpr("CAST(id AS STRING) AS value")
          .writeStream().format("kafka").option("checkpointLocation", dir.resolve("ckpt").toString());
      assertThatThrownBy(w::start).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("kafka.bootstrap.servers");
      w.option("kafka.bootstrap.servers", broker.bootstrap()).option("kafka.transactional.id", "mine");
      assertThatThrownBy(w::start).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'kafka.transactional.id' is not supported").hasMessageContaining("exactly_once");
      DataStreamWriter noCheckpoint = session.readStream().format("json").schema(Landing.SCHEMA)
          .load(dir.resolve("landing").toString()).writeStream().format("kafka")
          .option("kafka.bootstrap.servers", broker.bootstrap()).option("deliveryGuarantee", "twice");
      assertThatThrownBy(noCheckpoint::start).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("deliveryGuarantee must be one of [at_least_once, exactly_once], got 'twice'");
    }
  }
}
