package dev.sluice.ingestion.source.internal.kafka;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code maxOffsetsPerTrigger} with Spark's rule: the budget is shared out in proportion to each partition's
 * backlog (a share below one rounds up, so a small partition never starves; others round down).
 */
final class TriggerLimit {
  private TriggerLimit() {}

  static Map<TopicPartition, Long> prorate(Map<TopicPartition, Long> begin, Map<TopicPartition, Long> latest,
      long available, long max) {
    Map<TopicPartition, Long> end = new LinkedHashMap<>();
    latest.forEach((tp, until) -> {
      long from = begin.get(tp);
      long size = Math.max(0, until - from);
      if (available <= max || size == 0) {
        end.put(tp, Math.max(from, until));
        return;
      }
      double share = (double) max * size / available;
      long take = share < 1 ? (long) Math.ceil(share) : (long) Math.floor(share);
      end.put(tp, from + Math.min(size, take));
    });
    return end;
  }
}
