package dev.sluice.ingestion.internal.sink.kafka;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.internal.sink.SinkErrors;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Sends a batch's rows and waits until the brokers acknowledged all of them. The producer's buffer bounds what is
 * in flight; the first failed send fails the batch (what was sent may be in the topic: at-least-once retries it,
 * a transaction aborts it).
 */
final class BatchSender {
  private final Optional<String> topicOption;
  private StructType boundSchema;
  private KafkaRecords records;

  BatchSender(Optional<String> topicOption) {
    this.topicOption = topicOption;
  }

  /** The topics that rows of {@code batch} go to. */
  Set<String> topics(Batch batch) {
    KafkaRecords r = bind(batch.schema());
    Set<String> out = new HashSet<>();
    for (Row row : batch.rows()) {
      String t = r.topic(row);
      if (t != null) {
        out.add(t);
      }
    }
    return out;
  }

  /**
   * Sends every row and flushes; returns the topics written.
   *
   * @throws IllegalStateException when a row has no topic or a send failed, naming the batch
   */
  Set<String> send(Producer<byte[], byte[]> producer, long batchId, Batch batch) {
    KafkaRecords r = bind(batch.schema());
    FirstError error = new FirstError();
    Set<String> topics = new HashSet<>();
    for (Row row : batch.rows()) {
      ProducerRecord<byte[], byte[]> record = r.record(row);
      if (record == null) {
        throw SinkErrors.kafkaNullTopic(batchId);
      }
      topics.add(record.topic());
      producer.send(record, error);
      error.throwIfFailed(batchId);
    }
    producer.flush();
    error.throwIfFailed(batchId);
    return topics;
  }

  private KafkaRecords bind(StructType schema) {
    if (!schema.equals(boundSchema)) {
      records = KafkaRecords.bind(schema, topicOption);
      boundSchema = schema;
    }
    return records;
  }

  /** Keeps the first send failure; callbacks run on the producer's I/O thread. */
  private static final class FirstError implements Callback {
    private final AtomicReference<Exception> first = new AtomicReference<>();

    @Override
    public void onCompletion(RecordMetadata metadata, Exception exception) {
      if (exception != null) {
        first.compareAndSet(null, exception);
      }
    }

    void throwIfFailed(long batchId) {
      Exception e = first.get();
      if (e != null) {
        throw new IllegalStateException("Writing batch " + batchId + " to Kafka failed: " + e, e);
      }
    }
  }
}
