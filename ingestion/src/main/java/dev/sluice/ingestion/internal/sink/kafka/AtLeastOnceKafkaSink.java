package dev.sluice.ingestion.internal.sink.kafka;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.internal.sink.SinkInterceptor;
import dev.sluice.ingestion.sink.Sink;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;

/**
 * Spark's Kafka sink: every batch's records are sent and acknowledged before {@code commits/N} is written, so a
 * batch re-run after a crash is sent again: at least once (a consumer may see a re-run batch's records twice).
 */
final class AtLeastOnceKafkaSink implements Sink {
  private final Producer<byte[], byte[]> producer;
  private final BatchSender sender;
  private final SinkInterceptor interceptor;
  private final String description;

  AtLeastOnceKafkaSink(KafkaSinkOptions options, SinkInterceptor interceptor, String description) {
    this.producer = new KafkaProducer<>(options.producerConfig(Map.of()));
    this.sender = new BatchSender(options.topic());
    this.interceptor = interceptor;
    this.description = description;
  }

  @Override
  public long addBatch(long batchId, Batch batch) {
    sender.send(producer, batchId, batch);
    interceptor.at(SinkInterceptor.Step.DATA_WRITTEN, batchId);
    return batch.size();
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(30));
  }
}
