package dev.sluice.ingestion.internal.sink.kafka;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.internal.sink.SinkInterceptor;
import dev.sluice.ingestion.sink.Sink;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly-once into Kafka: batch N's records and a marker "batch N committed" ({@link BatchMarkers}) are written in
 * one Kafka transaction, committed before the runner writes {@code commits/N}.
 *
 * <ol>
 *   <li>Opening the sink calls {@code initTransactions()} with the transactional id {@code sluice-sink-<query id>}
 *       (the same after every restart): it fences any earlier producer of the query (a zombie's later sends and
 *       commit fail) and aborts its open transaction, or completes one that was already committing.
 *   <li>The first batch of a run may be a re-run of batch N (its offsets were written, {@code commits/N} was not):
 *       if the marker says N committed, the transaction is done and the batch is skipped; otherwise its earlier
 *       attempt was aborted in step 1 and the batch is written again.
 *   <li>Every batch: begin, send, flush, add the marker, commit. A failure before the commit aborts the
 *       transaction; a crash leaves it open until step 1 of the next run (or {@code transaction.timeout.ms}).
 * </ol>
 * A {@code read_committed} consumer therefore sees each batch once; a {@code read_uncommitted} one may also see
 * aborted attempts.
 */
final class TransactionalKafkaSink implements Sink {
  private static final Logger LOG = LoggerFactory.getLogger(TransactionalKafkaSink.class);
  private final Producer<byte[], byte[]> producer;
  private final Admin admin;
  private final BatchMarkers markers;
  private final BatchSender sender;
  private final SinkInterceptor interceptor;
  private final String transactionalId;
  private final String description;
  private boolean firstBatch = true;

  TransactionalKafkaSink(KafkaSinkOptions options, UUID queryId, SinkInterceptor interceptor, String description) {
    this.transactionalId = transactionalId(queryId);
    this.producer = new KafkaProducer<>(options.producerConfig(Map.of(
        ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true")));
    Admin created = null;
    try {
      created = Admin.create(options.adminConfig());
      producer.initTransactions();
    } catch (RuntimeException e) {
      producer.close(Duration.ZERO);
      if (created != null) {
        created.close(Duration.ZERO);
      }
      throw new IllegalStateException("Starting Kafka transactions with transactional id " + transactionalId
          + " failed: " + e + ". The brokers must allow transactions (transaction.state.log.* settings), and the"
          + " principal needs Write and Describe on that transactional id", e);
    }
    this.admin = created;
    this.markers = new BatchMarkers(admin, transactionalId);
    this.sender = new BatchSender(options.topic());
    this.interceptor = interceptor;
    this.description = description;
  }

  /** The transactional id (and marker group) of a query: stable across restarts, since the id is in the checkpoint. */
  static String transactionalId(UUID queryId) {
    return "sluice-sink-" + queryId;
  }

  @Override
  public long addBatch(long batchId, Batch batch) {
    if (firstBatch) {
      firstBatch = false;
      if (markers.committed(sender.topics(batch), batchId)) {
        LOG.info("Kafka transaction of batch {} ({}) was committed before the restart: skipping it", batchId,
            transactionalId);
        return ALREADY_COMMITTED;
      }
    }
    if (batch.size() == 0) {
      return 0;
    }
    try {
      producer.beginTransaction();
      Set<String> topics = sender.send(producer, batchId, batch);
      interceptor.at(SinkInterceptor.Step.DATA_WRITTEN, batchId);
      producer.sendOffsetsToTransaction(markers.marking(topics, batchId), markers.group());
      producer.commitTransaction();
      return batch.size();
    } catch (ProducerFencedException | InvalidProducerEpochException e) {
      throw new IllegalStateException("Another writer took over Kafka transactional id " + transactionalId + " (it"
          + " fenced this one) while batch " + batchId + " was written: another run of this query started. This run"
          + " stops without committing; the other one continues from the checkpoint", e);
    } catch (RuntimeException e) {
      abortQuietly(batchId, e);
      throw e;
    }
  }

  private void abortQuietly(long batchId, RuntimeException cause) {
    try {
      producer.abortTransaction();
    } catch (KafkaException | IllegalStateException e) {
      // The next run's initTransactions() aborts it anyway.
      LOG.warn("Aborting the Kafka transaction of batch {} after {} failed: {}", batchId, cause, e.toString());
    }
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public void close() {
    closeQuietly();
  }

  private void closeQuietly() {
    try {
      producer.close(Duration.ofSeconds(30));
    } finally {
      admin.close(Duration.ofSeconds(5));
    }
  }
}
