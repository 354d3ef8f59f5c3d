package dev.sluice.ingestion.source.internal.kafka;

import dev.sluice.ingestion.source.internal.kafka.KafkaSourceOptions.Assign;
import dev.sluice.ingestion.source.internal.kafka.KafkaSourceOptions.StartingOffsets;
import dev.sluice.ingestion.source.internal.kafka.KafkaSourceOptions.StartingTimestamps;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/** Finds the partitions a subscription reads now, and their earliest, latest and by-timestamp offsets. */
final class PartitionDiscovery {
  private final Consumer<byte[], byte[]> consumer;
  private final KafkaSourceOptions options;

  PartitionDiscovery(Consumer<byte[], byte[]> consumer, KafkaSourceOptions options) {
    this.consumer = consumer;
    this.options = options;
  }

  /** The partitions that exist now: for {@code assign} those of its list that exist. */
  Set<TopicPartition> partitions() {
    Set<TopicPartition> out = new TreeSet<>(KafkaOffsets.ORDER);
    Map<String, List<PartitionInfo>> topics = consumer.listTopics();
    topics.forEach((topic, infos) -> {
      if (options.subscription().matches(topic)) {
        infos.forEach(i -> out.add(new TopicPartition(topic, i.partition())));
      }
    });
    if (options.subscription() instanceof Assign a) {
      out.retainAll(a.partitions());
    }
    return out;
  }

  /** The end offset of every partition read now (the last stable offset under {@code read_committed}). */
  TreeMap<TopicPartition, Long> latestOffsets() {
    return KafkaOffsets.sorted(consumer.endOffsets(partitions()));
  }

  Map<TopicPartition, Long> earliest(Collection<TopicPartition> partitions) {
    return partitions.isEmpty() ? Map.of() : consumer.beginningOffsets(partitions);
  }

  /**
   * Where a new query starts.
   *
   * @throws IllegalArgumentException if per-partition offsets or timestamps leave out a partition the query reads
   */
  Map<TopicPartition, Long> startingOffsets(KafkaSourceOptions.Starting starting) {
    Set<TopicPartition> parts = partitions();
    Map<TopicPartition, Long> out = new HashMap<>();
    if (starting instanceof StartingOffsets s) {
      Map<TopicPartition, Long> given = s.perPartition().isEmpty() ? all(parts, s.all()) : s.perPartition();
      requireAll(parts, given.keySet(), "startingOffsets");
      List<TopicPartition> earliest = new ArrayList<>();
      List<TopicPartition> latest = new ArrayList<>();
      given.forEach((tp, off) -> {
        if (off == KafkaOffsets.EARLIEST) {
          earliest.add(tp);
        } else if (off == KafkaOffsets.LATEST) {
          latest.add(tp);
        } else {
          out.put(tp, off);
        }
      });
      out.putAll(earliest(earliest));
      if (!latest.isEmpty()) {
        out.putAll(consumer.endOffsets(latest));
      }
      return out;
    }
    StartingTimestamps t = (StartingTimestamps) starting;
    Map<TopicPartition, Long> times = t.all().map(ts -> all(parts, ts)).orElse(t.perPartition());
    requireAll(parts, times.keySet(), "startingOffsetsByTimestamp");
    Map<TopicPartition, OffsetAndTimestamp> found = times.isEmpty() ? Map.of() : consumer.offsetsForTimes(times);
    List<TopicPartition> none = new ArrayList<>();
    times.keySet().forEach(tp -> {
      OffsetAndTimestamp o = found.get(tp);
      if (o == null) {
        none.add(tp); // no record at or after the time yet: start at the end
      } else {
        out.put(tp, o.offset());
      }
    });
    if (!none.isEmpty()) {
      out.putAll(consumer.endOffsets(none));
    }
    return out;
  }

  private static Map<TopicPartition, Long> all(Set<TopicPartition> parts, long value) {
    Map<TopicPartition, Long> out = new HashMap<>();
    parts.forEach(tp -> out.put(tp, value));
    return out;
  }

  private static void requireAll(Set<TopicPartition> parts, Set<TopicPartition> given, String option) {
    Set<TopicPartition> missing = new TreeSet<>(KafkaOffsets.ORDER);
    missing.addAll(parts);
    missing.removeAll(given);
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException("Option '" + option + "' of source format 'kafka' must name every partition"
          + " the query reads, but leaves out " + missing + "; add them (-2 = earliest, -1 = latest for offsets)");
    }
  }
}
