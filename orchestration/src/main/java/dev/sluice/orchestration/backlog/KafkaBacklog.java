package dev.sluice.orchestration.backlog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.KafkaSourceConfig;
import dev.sluice.config.PipelineConfig;
import dev.sluice.ingestion.internal.checkpoint.QueryCheckpoint;
import dev.sluice.ingestion.source.SourceOffset;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * How far a Kafka pipeline is behind: per partition of its topics, the end offset now minus the next offset its
 * last committed batch reads (Spark's offset JSON in the checkpoint), summed. Before the first batch a partition
 * counts from where a new query starts it ({@code starting_offsets}, earliest by default), a partition added later
 * from its earliest offset; records retention deleted are not counted. Asked of the brokers with an admin client and a short timeout: when they cannot be
 * reached the backlog is unknown and {@link #problem()} says why, so a view never fails or hangs on it.
 */
public final class KafkaBacklog {
  /** Long enough for a broker on a LAN, short enough for an HTTP scrape or a progress bar not to stall. */
  public static final Duration TIMEOUT = Duration.ofSeconds(3);
  /** The admin client's id, in its log lines. */
  public static final String CLIENT_ID = "sluice-backlog";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final long offsetsBehind;
  private final String problem;

  private KafkaBacklog(long offsetsBehind, String problem) {
    this.offsetsBehind = offsetsBehind;
    this.problem = problem;
  }

  /** Offsets behind latest, or -1 when unknown. */
  public long offsetsBehind() {
    return offsetsBehind;
  }

  /** Why the backlog is unknown (the brokers could not be reached, or did not answer). */
  public Optional<String> problem() {
    return Optional.ofNullable(problem);
  }

  /** The next offset per partition, as the offset JSON {@code {"topic":{"0":42}}} of the checkpoint or progress. */
  public static Map<TopicPartition, Long> positions(String offsetJson) {
    Map<TopicPartition, Long> out = new HashMap<>();
    if (offsetJson == null) {
      return out;
    }
    try {
      JsonNode root = JSON.readTree(offsetJson);
      for (Iterator<Map.Entry<String, JsonNode>> topics = root.fields(); topics.hasNext(); ) {
        Map.Entry<String, JsonNode> t = topics.next();
        t.getValue().fields().forEachRemaining(p -> {
          if (p.getKey().matches("\\d+") && p.getValue().isIntegralNumber()) {
            out.put(new TopicPartition(t.getKey(), Integer.parseInt(p.getKey())), p.getValue().asLong());
          }
        });
      }
    } catch (IOException | RuntimeException notOffsets) {
      // not a Kafka source's offset: no positions
    }
    return out;
  }

  /** The backlog of {@code pipeline}, a bronze pipeline with a Kafka source. */
  public static KafkaBacklog of(PipelineConfig pipeline, QueryCheckpoint checkpoint, Duration timeout) {
    KafkaSourceConfig kafka = pipeline.source().kafka().orElseThrow(
        () -> new IllegalArgumentException("Pipeline " + pipeline.name() + " does not read Kafka"));
    Map<TopicPartition, Long> committed = positions(CommittedOffset.of(checkpoint).map(SourceOffset::json).orElse(null));
    try (Admin admin = Admin.create(clientConfig(kafka, pipeline.source().options(), timeout))) {
      return new KafkaBacklog(behind(admin, kafka, pipeline.source().options(), committed, timeout), null);
    } catch (TimeoutException e) {
      return silent(kafka, timeout);
    } catch (ExecutionException e) {
      // the admin client's own deadline (no broker answered) races ours; both mean the same
      if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
        return silent(kafka, timeout);
      }
      return unknown("the brokers " + kafka.bootstrapServers() + " could not be asked: " + e.getCause().getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return unknown("interrupted");
    } catch (RuntimeException e) {
      return unknown("the brokers " + kafka.bootstrapServers() + " could not be asked: " + e.getMessage());
    }
  }

  private static KafkaBacklog silent(KafkaSourceConfig kafka, Duration timeout) {
    return unknown("the brokers " + kafka.bootstrapServers() + " did not answer within " + timeout.toSeconds() + " s");
  }

  private static KafkaBacklog unknown(String why) {
    return new KafkaBacklog(-1, why);
  }

  /** The source's own client settings ({@code kafka.*}: security), bounded by {@code timeout}. */
  private static Map<String, Object> clientConfig(KafkaSourceConfig kafka, Map<String, String> options,
      Duration timeout) {
    Map<String, Object> config = new HashMap<>();
    options.forEach((k, v) -> {
      if (k.startsWith("kafka.") && !k.equals("kafka.isolation.level")) {
        config.put(k.substring("kafka.".length()), v);
      }
    });
    int ms = (int) timeout.toMillis();
    config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
    config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
    config.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, Math.min(ms, 1_000));
    config.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, ms);
    config.put(AdminClientConfig.CLIENT_ID_CONFIG, CLIENT_ID);
    return config;
  }

  private static long behind(Admin admin, KafkaSourceConfig kafka, Map<String, String> options,
      Map<TopicPartition, Long> committed, Duration timeout)
      throws ExecutionException, InterruptedException, TimeoutException {
    long ms = timeout.toMillis();
    Set<String> existing = admin.listTopics().names().get(ms, TimeUnit.MILLISECONDS);
    List<String> topics = kafka.topics().stream().filter(existing::contains).toList();
    if (topics.isEmpty()) {
      return 0;
    }
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
    for (TopicDescription d : admin.describeTopics(topics).allTopicNames().get(ms, TimeUnit.MILLISECONDS).values()) {
      d.partitions().forEach(p -> {
        latest.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest());
        earliest.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.earliest());
      });
    }
    // read_committed ends at the last stable offset, as the source's consumer does
    ListOffsetsOptions isolation = new ListOffsetsOptions("read_committed".equalsIgnoreCase(
        options.getOrDefault("kafka.isolation.level", "")) ? IsolationLevel.READ_COMMITTED
        : IsolationLevel.READ_UNCOMMITTED);
    Map<TopicPartition, ListOffsetsResultInfo> ends = admin.listOffsets(latest, isolation).all()
        .get(ms, TimeUnit.MILLISECONDS);
    Map<TopicPartition, ListOffsetsResultInfo> starts = admin.listOffsets(earliest, isolation).all()
        .get(ms, TimeUnit.MILLISECONDS);
    Map<TopicPartition, Long> startingAt = starting(kafka.startingOffsets().orElse("earliest"));
    boolean fromLatest = kafka.startingOffsets().orElse("").strip().toLowerCase(Locale.ROOT).equals("latest");
    long sum = 0;
    for (Map.Entry<TopicPartition, ListOffsetsResultInfo> e : ends.entrySet()) {
      long end = e.getValue().offset();
      long first = starts.get(e.getKey()).offset();
      // a partition that appeared after the query started is read from its earliest offset, as in Spark
      long from = committed.containsKey(e.getKey()) ? committed.get(e.getKey()) : !committed.isEmpty() ? -2L
          : startingAt.getOrDefault(e.getKey(), fromLatest ? -1L : -2L);
      from = from == -2 ? first : from == -1 ? end : Math.max(from, first);
      sum += Math.max(0, end - from);
    }
    return sum;
  }

  /** Per-partition starting offsets given as JSON (-2 earliest, -1 latest); none for {@code earliest}/{@code latest}. */
  private static Map<TopicPartition, Long> starting(String startingOffsets) {
    return startingOffsets.strip().startsWith("{") ? positions(startingOffsets) : Map.of();
  }
}
