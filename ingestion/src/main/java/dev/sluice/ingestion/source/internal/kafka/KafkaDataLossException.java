package dev.sluice.ingestion.source.internal.kafka;

import org.apache.kafka.common.TopicPartition;

/**
 * Offsets the query had still to read are gone from a partition (retention, compaction, a deleted topic) and the
 * source runs with {@code failOnDataLoss=true}: the message names the topic, the partition and the lost range.
 */
final class KafkaDataLossException extends IllegalStateException {
  KafkaDataLossException(TopicPartition tp, String what, String range) {
    super("Data loss in Kafka topic '" + tp.topic() + "' partition " + tp.partition() + ": " + what
        + (range.isEmpty() ? "" : " (offsets " + range + " are lost)") + ". The query stops because"
        + " failOnDataLoss is true; keep records longer than the query lags (retention.ms / retention.bytes), or set"
        + " option failOnDataLoss=false to skip the lost offsets with a warning");
  }
}
