package dev.sluice.ingestion.source.internal.kafka;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.table.types.StructType;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads Kafka topics as a stream; the offsets of each batch live in the query's checkpoint ({@code offsets/N},
 * Spark's JSON), never in a consumer group. The starting offsets of a new query are fixed on its first trigger and
 * kept in the source's folder of the checkpoint, so a restarted first batch reads the same records. Partitions
 * that appear later (new partitions, new topics of a pattern) are read from their earliest offset.
 */
final class KafkaSource implements Source {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaSource.class);

  private final KafkaSourceOptions options;
  private final Location metadata;
  private final Clock clock;
  private final Consumer<byte[], byte[]> consumer;
  private final PartitionDiscovery discovery;
  private final PartitionFetcher fetcher;
  private Map<TopicPartition, Long> availableNowEnd;
  private Map<TopicPartition, Long> lastLatest = Map.of();
  private Map<TopicPartition, Long> lastEnd = Map.of();
  private long lastTriggerMillis;

  KafkaSource(KafkaSourceOptions options, Location metadata, Clock clock) {
    this.options = options;
    this.metadata = metadata;
    this.clock = clock;
    this.consumer = new KafkaConsumer<>(new java.util.HashMap<>(options.consumerConfig()));
    this.discovery = new PartitionDiscovery(consumer, options);
    this.fetcher = new PartitionFetcher(consumer, options.failOnDataLoss(), options.includeHeaders(),
        options.pollTimeout());
    this.lastTriggerMillis = clock.millis();
  }

  @Override
  public StructType schema() {
    return KafkaRecords.schema(options.includeHeaders());
  }

  @Override
  public Optional<SourceOffset> latestOffset(Optional<SourceOffset> start, ReadLimit limit) {
    Map<TopicPartition, Long> from = start.<Map<TopicPartition, Long>>map(KafkaOffsets::parse).orElseGet(this::initialOffsets);
    Map<TopicPartition, Long> latest = discovery.latestOffsets();
    if (availableNowEnd != null) {
      latest.keySet().retainAll(availableNowEnd.keySet());
      latest.replaceAll((tp, end) -> Math.min(end, availableNowEnd.get(tp)));
    }
    lastLatest = latest;
    Map<TopicPartition, Long> begin = begin(from, latest);
    long available = 0;
    for (Map.Entry<TopicPartition, Long> e : latest.entrySet()) {
      available += Math.max(0, e.getValue() - begin.get(e.getKey()));
    }
    if (available == 0 || delayed(available)) {
      return Optional.empty();
    }
    TreeMap<TopicPartition, Long> end =
        KafkaOffsets.sorted(TriggerLimit.prorate(begin, latest, available, limit.maxRecords()));
    return Optional.of(KafkaOffsets.toSourceOffset(end));
  }

  /** Where each partition of {@code latest} starts after {@code from}: new partitions at their earliest offset. */
  private Map<TopicPartition, Long> begin(Map<TopicPartition, Long> from, Map<TopicPartition, Long> latest) {
    for (TopicPartition tp : from.keySet()) {
      if (!latest.containsKey(tp) && availableNowEnd == null) {
        lostPartition(tp);
      }
    }
    Map<TopicPartition, Long> begin = new LinkedHashMap<>();
    Map<TopicPartition, Long> earliest = discovery.earliest(latest.keySet().stream()
        .filter(tp -> !from.containsKey(tp)).toList());
    for (Map.Entry<TopicPartition, Long> e : latest.entrySet()) {
      TopicPartition tp = e.getKey();
      long b = from.containsKey(tp) ? from.get(tp) : earliest.get(tp);
      if (e.getValue() < b) {
        // The end went back (topic deleted and created again): the offsets past it are gone.
        if (options.failOnDataLoss()) {
          throw new KafkaDataLossException(tp, "the partition's end offset went back from " + b + " to " + e.getValue()
              + " (was the topic deleted and created again?)", "");
        }
        LOG.warn("Kafka topic '{}' partition {} went back from offset {} to {}; reading on from {}"
            + " (failOnDataLoss=false)", tp.topic(), tp.partition(), b, e.getValue(), e.getValue());
        b = e.getValue();
      }
      begin.put(tp, b);
    }
    return begin;
  }

  private void lostPartition(TopicPartition tp) {
    if (options.failOnDataLoss()) {
      throw new KafkaDataLossException(tp, "the partition no longer exists (its topic was deleted, or no longer"
          + " matches " + options.subscription().describe() + ")", "");
    }
    LOG.warn("Kafka topic '{}' partition {} is gone; the query no longer reads it (failOnDataLoss=false)",
        tp.topic(), tp.partition());
  }

  /** {@code minOffsetsPerTrigger}: wait for more records unless {@code maxTriggerDelay} passed since the last batch. */
  private boolean delayed(long available) {
    long now = clock.millis();
    if (availableNowEnd == null && available < options.minOffsetsPerTrigger()
        && now - lastTriggerMillis < options.maxTriggerDelay().toMillis()) {
      return true;
    }
    lastTriggerMillis = now;
    return false;
  }

  @Override
  public void prepareForAvailableNow() {
    availableNowEnd = discovery.latestOffsets();
  }

  @Override
  public Batch getBatch(Optional<SourceOffset> start, SourceOffset end) {
    Map<TopicPartition, Long> from = start.<Map<TopicPartition, Long>>map(KafkaOffsets::parse).orElseGet(this::initialOffsets);
    TreeMap<TopicPartition, Long> until = KafkaOffsets.parse(end);
    Map<TopicPartition, Long> earliest = discovery.earliest(until.keySet().stream()
        .filter(tp -> !from.containsKey(tp)).toList());
    Map<TopicPartition, PartitionFetcher.Range> ranges = new LinkedHashMap<>();
    until.forEach((tp, u) -> {
      long f = from.containsKey(tp) ? from.get(tp) : earliest.getOrDefault(tp, 0L);
      if (u > f) {
        ranges.put(tp, new PartitionFetcher.Range(f, u));
      }
    });
    lastEnd = until;
    return fetcher.read(ranges, Batch.builder(schema()));
  }

  /** The offsets a new query starts from: fixed on the first call and kept in the checkpoint. */
  private Map<TopicPartition, Long> initialOffsets() {
    return InitialOffsets.readOrFix(metadata, () -> discovery.startingOffsets(options.starting()));
  }

  /** Lag behind the latest offsets seen when the batch was planned, as Spark names it; and lost offsets. */
  @Override
  public Map<String, Long> metrics() {
    Map<String, Long> out = new TreeMap<>();
    long lost = fetcher.takeLostOffsets();
    if (lost > 0 || !options.failOnDataLoss()) {
      out.put("lostOffsets", lost);
    }
    long min = Long.MAX_VALUE;
    long max = 0;
    long sum = 0;
    for (Map.Entry<TopicPartition, Long> e : lastLatest.entrySet()) {
      long behind = Math.max(0, e.getValue() - lastEnd.getOrDefault(e.getKey(), e.getValue()));
      min = Math.min(min, behind);
      max = Math.max(max, behind);
      sum += behind;
    }
    if (!lastLatest.isEmpty()) {
      out.put("minOffsetsBehindLatest", min);
      out.put("maxOffsetsBehindLatest", max);
      out.put("avgOffsetsBehindLatest", Math.round((double) sum / lastLatest.size()));
    }
    return out;
  }

  @Override
  public String description() {
    return "KafkaV2[" + options.subscription().describe() + "]";
  }

  @Override
  public void close() {
    consumer.close(java.time.Duration.ofSeconds(5));
  }
}
