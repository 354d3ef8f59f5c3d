package dev.sluice.ingestion.source.internal.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.ingestion.source.SourceContext;
import dev.sluice.ingestion.source.internal.SourceOptions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The Kafka source's options, as Spark names them. What to read: exactly one of {@code subscribe} (topics, comma
 * separated), {@code subscribePattern} (a Java regex; new matching topics are picked up) or {@code assign}
 * ({@code {"topic":[0,1]}}). Where a new query starts: {@code startingOffsets} ({@code latest} by default,
 * {@code earliest}, or per-partition JSON with -2 = earliest and -1 = latest), or {@code startingTimestamp} /
 * {@code startingOffsetsByTimestamp} (epoch ms; the first offset at or after it). Per batch:
 * {@code maxOffsetsPerTrigger} (taken by the runner as the record limit, so that {@code Trigger.once()} ignores it
 * as in Spark), {@code minOffsetsPerTrigger} with {@code maxTriggerDelay} (default 15m).
 * {@code failOnDataLoss} (default true), {@code includeHeaders} (default false),
 * {@code kafkaConsumer.pollTimeoutMs} (default 120000), and {@code kafka.*} passed to the consumer.
 */
record KafkaSourceOptions(
    Subscription subscription,
    Starting starting,
    long minOffsetsPerTrigger,
    Duration maxTriggerDelay,
    boolean failOnDataLoss,
    boolean includeHeaders,
    Duration pollTimeout,
    Map<String, Object> consumerConfig) {
  static final String FORMAT = "kafka";
  static final String PREFIX = "kafka.";
  static final Set<String> KEYS = Set.of("subscribe", "subscribepattern", "assign", "startingoffsets",
      "startingtimestamp", "startingoffsetsbytimestamp", "maxoffsetspertrigger", "minoffsetspertrigger",
      "maxtriggerdelay", "failondataloss", "includeheaders", "kafkaconsumer.polltimeoutms");
  /** Consumer settings the source owns, with the option that replaces each. */
  private static final Map<String, String> OWNED = Map.of(
      ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "use startingOffsets (earliest, latest or per-partition JSON)",
      ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "offsets are kept in the query's checkpoint, never committed to Kafka",
      ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, "keys are read as binary: CAST(key AS STRING) or parse them",
      ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, "values are read as binary: CAST(value AS STRING) or parse them",
      ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, "the source reads partitions directly and runs no interceptors");
  private static final ObjectMapper JSON = new ObjectMapper();

  KafkaSourceOptions {
    consumerConfig = Map.copyOf(consumerConfig);
  }

  /** Which partitions the query reads. */
  sealed interface Subscription {
    /** Whether the query reads {@code topic}, judged by name. */
    boolean matches(String topic);

    String describe();
  }

  record Subscribe(List<String> topics) implements Subscription {
    @Override
    public boolean matches(String topic) {
      return topics.contains(topic);
    }

    @Override
    public String describe() {
      return "Subscribe[" + String.join(",", topics) + "]";
    }
  }

  record SubscribePattern(Pattern pattern) implements Subscription {
    @Override
    public boolean matches(String topic) {
      return pattern.matcher(topic).matches();
    }

    @Override
    public String describe() {
      return "SubscribePattern[" + pattern + "]";
    }
  }

  record Assign(List<TopicPartition> partitions) implements Subscription {
    @Override
    public boolean matches(String topic) {
      return partitions.stream().anyMatch(tp -> tp.topic().equals(topic));
    }

    @Override
    public String describe() {
      return "Assign[" + String.join(",", partitions.stream().map(TopicPartition::toString).toList()) + "]";
    }
  }

  /** Where a query without a checkpoint starts. */
  sealed interface Starting {}

  /** {@code earliest} / {@code latest}, or explicit offsets (-2 / -1 per partition); others not listed: latest. */
  record StartingOffsets(long all, Map<TopicPartition, Long> perPartition) implements Starting {}

  /** {@code startingTimestamp} ({@code all}), or per partition; the first offset whose timestamp is at or after it. */
  record StartingTimestamps(Optional<Long> all, Map<TopicPartition, Long> perPartition) implements Starting {}

  /**
   * @throws IllegalArgumentException naming the option that is missing, bad or owned by the source, and the fix
   */
  static KafkaSourceOptions parse(SourceContext context) {
    Map<String, String> own = new HashMap<>();
    Map<String, Object> consumer = new HashMap<>();
    context.options().forEach((k, v) -> {
      if (k.toLowerCase(Locale.ROOT).startsWith(PREFIX)) {
        consumer.put(k.substring(PREFIX.length()), v);
      } else {
        own.put(k, v);
      }
    });
    SourceOptions o = SourceOptions.check(FORMAT, withOptions(context, own), KEYS);
    if (!consumer.containsKey(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG)) {
      throw new IllegalArgumentException("Option 'kafka.bootstrap.servers' is required for source format 'kafka':"
          + " set the brokers to read from, e.g. option(\"kafka.bootstrap.servers\", \"host1:9092,host2:9092\")");
    }
    OWNED.forEach((key, fix) -> {
      if (consumer.containsKey(key)) {
        throw new IllegalArgumentException("Kafka option 'kafka." + key + "' is not supported by the kafka source: "
            + fix + "; remove the option");
      }
    });
    consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    // Positions come from the checkpoint; a position retention removed must surface, not be reset silently.
    consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
    consumer.putIfAbsent(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
    long min = o.longValue("minOffsetsPerTrigger", 1).orElse(0L);
    return new KafkaSourceOptions(subscription(o), starting(o), min,
        o.duration("maxTriggerDelay", Duration.ofMinutes(15)), o.bool("failOnDataLoss", true),
        o.bool("includeHeaders", false), Duration.ofMillis(o.longValue("kafkaConsumer.pollTimeoutMs", 1).orElse(120_000L)),
        consumer);
  }

  private static SourceContext withOptions(SourceContext c, Map<String, String> options) {
    return new SourceContext(options, c.userSchema(), c.path(), c.metadataLocation(), c.resolver(), c.clock());
  }

  private static Subscription subscription(SourceOptions o) {
    List<String> given = new java.util.ArrayList<>();
    for (String key : List.of("subscribe", "subscribePattern", "assign")) {
      o.string(key).ifPresent(v -> given.add(key));
    }
    if (given.size() != 1) {
      throw new IllegalArgumentException("Source format 'kafka' needs exactly one of the options 'subscribe' (topics,"
          + " comma separated), 'subscribePattern' (a regex) or 'assign' ({\"topic\":[0,1]}), but "
          + (given.isEmpty() ? "none was given" : "got " + given) + "; set one of them");
    }
    String v = o.string(given.get(0)).orElseThrow().trim();
    switch (given.get(0)) {
      case "subscribe" -> {
        List<String> topics = java.util.Arrays.stream(v.split(",")).map(String::trim).filter(t -> !t.isEmpty())
            .distinct().toList();
        if (topics.isEmpty()) {
          throw o.invalid("subscribe", v, "one or more topic names, comma separated");
        }
        return new Subscribe(topics);
      }
      case "subscribePattern" -> {
        try {
          return new SubscribePattern(Pattern.compile(v));
        } catch (PatternSyntaxException e) {
          throw o.invalid("subscribePattern", v, "a Java regular expression (" + e.getDescription() + ")");
        }
      }
      default -> {
        return new Assign(assign(o, v));
      }
    }
  }

  private static List<TopicPartition> assign(SourceOptions o, String v) {
    List<TopicPartition> out = new java.util.ArrayList<>();
    try {
      JsonNode root = JSON.readTree(v);
      root.fields().forEachRemaining(topic -> topic.getValue().forEach(p -> {
        if (!p.isIntegralNumber()) {
          throw new IllegalArgumentException(p.toString());
        }
        out.add(new TopicPartition(topic.getKey(), p.intValue()));
      }));
    } catch (Exception e) {
      out.clear();
    }
    if (out.isEmpty()) {
      throw o.invalid("assign", v, "JSON naming topics and their partitions, e.g. {\"orders\":[0,1]}");
    }
    out.sort(KafkaOffsets.ORDER);
    return List.copyOf(out);
  }

  private static Starting starting(SourceOptions o) {
    Optional<String> offsets = o.string("startingOffsets");
    Optional<Long> timestamp = o.longValue("startingTimestamp", 0);
    Optional<String> byTimestamp = o.string("startingOffsetsByTimestamp");
    int given = (offsets.isPresent() ? 1 : 0) + (timestamp.isPresent() ? 1 : 0) + (byTimestamp.isPresent() ? 1 : 0);
    if (given > 1) {
      throw new IllegalArgumentException("Source format 'kafka' takes one of 'startingOffsets', 'startingTimestamp'"
          + " and 'startingOffsetsByTimestamp', not several; keep the one that says where a new query starts");
    }
    if (timestamp.isPresent()) {
      return new StartingTimestamps(timestamp, Map.of());
    }
    if (byTimestamp.isPresent()) {
      return new StartingTimestamps(Optional.empty(), KafkaOffsets.parse(byTimestamp.get(),
          "fix option 'startingOffsetsByTimestamp' (epoch milliseconds per partition)"));
    }
    String v = offsets.orElse("latest").trim();
    if (v.equalsIgnoreCase("latest")) {
      return new StartingOffsets(KafkaOffsets.LATEST, Map.of());
    }
    if (v.equalsIgnoreCase("earliest")) {
      return new StartingOffsets(KafkaOffsets.EARLIEST, Map.of());
    }
    TreeMap<TopicPartition, Long> per = KafkaOffsets.parse(v,
        "fix option 'startingOffsets': 'earliest', 'latest', or offsets per partition (-2 = earliest, -1 = latest)");
    per.forEach((tp, off) -> {
      if (off < KafkaOffsets.EARLIEST) {
        throw o.invalid("startingOffsets", v, "offsets >= 0, or -2 (earliest) / -1 (latest), but " + tp + " has " + off);
      }
    });
    return new StartingOffsets(KafkaOffsets.LATEST, per);
  }
}
