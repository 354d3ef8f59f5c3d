package dev.sluice.ingestion.internal.sink.kafka;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Which batch a query's Kafka transactions last committed, kept where the transaction itself commits it: as the
 * offset of partition 0 of each topic written, in a consumer group named after the query
 * ({@code sendOffsetsToTransaction}), so the marker and the batch's records become visible atomically. No consumer
 * of the group ever reads: the "offset" is the batch id. Read back with {@code requireStable}, so a transaction
 * still completing is waited for rather than read as absent.
 */
final class BatchMarkers {
  private static final long TIMEOUT_S = 60;
  private final Admin admin;
  private final ConsumerGroupMetadata group;

  BatchMarkers(Admin admin, String groupId) {
    this.admin = admin;
    this.group = new ConsumerGroupMetadata(groupId);
  }

  ConsumerGroupMetadata group() {
    return group;
  }

  /** The markers that record batch {@code batchId} as committed for {@code topics}. */
  Map<TopicPartition, OffsetAndMetadata> marking(Set<String> topics, long batchId) {
    Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
    for (String t : topics) {
      out.put(new TopicPartition(t, 0), new OffsetAndMetadata(batchId, "sluice batch " + batchId));
    }
    return out;
  }

  /**
   * True if a committed transaction already recorded batch {@code batchId} (or a later one) for one of
   * {@code topics}; every topic of a batch is marked in its one transaction, so one is as good as all.
   */
  boolean committed(Set<String> topics, long batchId) {
    if (topics.isEmpty()) {
      return false;
    }
    ListConsumerGroupOffsetsSpec spec = new ListConsumerGroupOffsetsSpec()
        .topicPartitions(topics.stream().map(t -> new TopicPartition(t, 0)).toList());
    Map<TopicPartition, OffsetAndMetadata> found;
    try {
      found = admin.listConsumerGroupOffsets(Map.of(group.groupId(), spec),
          new ListConsumerGroupOffsetsOptions().requireStable(true)).partitionsToOffsetAndMetadata(group.groupId())
          .get(TIMEOUT_S, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while reading the batch markers of group " + group.groupId(), e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("Reading which batch the Kafka sink last committed (consumer group "
          + group.groupId() + ") failed: " + e + ". Without it a re-run batch could be written twice, so the query"
          + " stops; check that the brokers are reachable and the sink may describe the group", e);
    }
    return found.values().stream().anyMatch(o -> o != null && o.offset() >= batchId);
  }
}
