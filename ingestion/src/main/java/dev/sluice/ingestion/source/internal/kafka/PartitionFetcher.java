package dev.sluice.ingestion.source.internal.kafka;

import dev.sluice.ingestion.Batch;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the records of offset ranges {@code [from, until)} into a batch through an assigned consumer (no group):
 * each partition is paused as soon as it reaches its end, so the batch holds exactly the planned records. Offsets
 * retention removed before they were read are data loss: fatal, or skipped and counted.
 */
final class PartitionFetcher {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionFetcher.class);
  private static final Duration POLL = Duration.ofMillis(200);

  /** The records {@code [from, until)} of one partition. */
  record Range(long from, long until) {}

  private final Consumer<byte[], byte[]> consumer;
  private final boolean failOnDataLoss;
  private final boolean includeHeaders;
  private final Duration pollTimeout;
  private long lostOffsets;

  PartitionFetcher(Consumer<byte[], byte[]> consumer, boolean failOnDataLoss, boolean includeHeaders,
      Duration pollTimeout) {
    this.consumer = consumer;
    this.failOnDataLoss = failOnDataLoss;
    this.includeHeaders = includeHeaders;
    this.pollTimeout = pollTimeout;
  }

  /** Offsets skipped as lost since the previous call (with {@code failOnDataLoss=false}); resets the count. */
  long takeLostOffsets() {
    long n = lostOffsets;
    lostOffsets = 0;
    return n;
  }

  /**
   * @throws KafkaDataLossException if planned offsets are gone and {@code failOnDataLoss} is true
   * @throws IllegalStateException if a partition yields nothing for {@code kafkaConsumer.pollTimeoutMs}
   */
  Batch read(Map<TopicPartition, Range> ranges, Batch.Builder out) {
    Map<TopicPartition, Long> next = new TreeMap<>(KafkaOffsets.ORDER);
    ranges.forEach((tp, r) -> next.put(tp, r.from()));
    consumer.assign(next.keySet());
    consumer.resume(next.keySet());
    try {
      skipLost(next.keySet(), next, ranges);
      next.forEach(consumer::seek);
      long lastProgress = System.nanoTime();
      while (!next.isEmpty()) {
        ConsumerRecords<byte[], byte[]> records;
        try {
          records = consumer.poll(POLL);
        } catch (OffsetOutOfRangeException e) {
          skipLost(e.partitions(), next, ranges);
          next.forEach(consumer::seek);
          continue;
        }
        if (!records.isEmpty()) {
          lastProgress = System.nanoTime();
        }
        for (TopicPartition tp : records.partitions()) {
          Range r = ranges.get(tp);
          for (ConsumerRecord<byte[], byte[]> rec : records.records(tp)) {
            if (rec.offset() >= next.getOrDefault(tp, Long.MAX_VALUE) && rec.offset() < r.until()) {
              out.add(KafkaRecords.row(rec, includeHeaders));
            }
          }
        }
        finishReached(next, ranges);
        if (!next.isEmpty() && System.nanoTime() - lastProgress > pollTimeout.toNanos()) {
          stalled(next, ranges);
          lastProgress = System.nanoTime();
        }
      }
      return out.build();
    } finally {
      // Paused rather than unassigned: fetches still in flight then land quietly instead of warning.
      consumer.pause(consumer.assignment());
    }
  }

  /** Pauses (drops) the partitions whose position passed their end; transaction markers may carry it past. */
  private void finishReached(Map<TopicPartition, Long> next, Map<TopicPartition, Range> ranges) {
    for (TopicPartition tp : List.copyOf(next.keySet())) {
      long position = consumer.position(tp);
      if (position >= ranges.get(tp).until()) {
        consumer.pause(List.of(tp));
        next.remove(tp);
      } else {
        next.put(tp, position);
      }
    }
  }

  /** Where the partition's first offset passed the next one to read, the offsets between are lost. */
  private void skipLost(Collection<TopicPartition> check, Map<TopicPartition, Long> next,
      Map<TopicPartition, Range> ranges) {
    Map<TopicPartition, Long> earliest = consumer.beginningOffsets(check);
    for (TopicPartition tp : check) {
      Long from = next.get(tp);
      Long first = earliest.get(tp);
      if (from == null || first == null || first <= from) {
        continue;
      }
      long until = ranges.get(tp).until();
      long lostUntil = Math.min(first, until);
      lost(tp, "the next offset to read, " + from + ", was removed (the partition now starts at " + first + ")",
          from, lostUntil);
      if (first >= until) {
        next.remove(tp);
        consumer.pause(List.of(tp));
      } else {
        next.put(tp, first);
      }
    }
  }

  /** No record for the poll timeout: either the planned records are gone (the end moved back) or Kafka is slow. */
  private void stalled(Map<TopicPartition, Long> next, Map<TopicPartition, Range> ranges) {
    Map<TopicPartition, Long> latest = consumer.endOffsets(next.keySet());
    boolean lostAny = false;
    for (TopicPartition tp : List.copyOf(next.keySet())) {
      long end = latest.getOrDefault(tp, 0L);
      long until = ranges.get(tp).until();
      if (end < until) {
        lost(tp, "the partition ends at " + end + " but the batch was planned up to " + until
            + " (was the topic deleted and created again?)", Math.max(end, next.get(tp)), until);
        next.remove(tp);
        consumer.pause(List.of(tp));
        lostAny = true;
      }
    }
    if (!lostAny) {
      throw new IllegalStateException("Kafka returned no records for " + pollTimeout.toMillis() + " ms while reading "
          + new HashMap<>(next) + " (next offset per partition) up to the planned ends " + ranges
          + "; check that the brokers are reachable, or raise kafkaConsumer.pollTimeoutMs");
    }
  }

  private void lost(TopicPartition tp, String what, long from, long until) {
    String range = from < until ? "[" + from + ", " + until + ")" : "";
    if (failOnDataLoss) {
      throw new KafkaDataLossException(tp, what, range);
    }
    lostOffsets += Math.max(0, until - from);
    LOG.warn("Kafka topic '{}' partition {}: {}; skipping {} (failOnDataLoss=false)", tp.topic(), tp.partition(),
        what, range.isEmpty() ? "nothing" : "offsets " + range);
  }
}
