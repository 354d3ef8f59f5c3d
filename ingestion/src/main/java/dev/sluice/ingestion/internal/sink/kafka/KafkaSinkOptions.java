package dev.sluice.ingestion.internal.sink.kafka;

import dev.sluice.ingestion.internal.sink.SinkErrors;
import dev.sluice.ingestion.sink.SinkContext;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The Kafka sink's options, as Spark names them: {@code kafka.bootstrap.servers} (required), {@code topic}
 * (else every row's {@code topic} column), {@code kafka.*} passed to the producer without the prefix, and
 * {@code deliveryGuarantee}: {@code at_least_once} (default, Spark's behaviour) or {@code exactly_once} (Kafka
 * transactions tied to the query's batches).
 */
record KafkaSinkOptions(Optional<String> topic, Map<String, Object> producerConfig, boolean exactlyOnce) {
  static final String PREFIX = "kafka.";
  static final String DELIVERY_GUARANTEE = "deliveryguarantee";
  static final Set<String> OPTIONS = Set.of("topic", DELIVERY_GUARANTEE);
  private static final List<String> GUARANTEES = List.of("at_least_once", "exactly_once");

  KafkaSinkOptions {
    producerConfig = Map.copyOf(producerConfig);
  }

  /**
   * @throws IllegalArgumentException for a missing {@code kafka.bootstrap.servers}, a producer setting the sink owns,
   *     or an unknown delivery guarantee
   */
  static KafkaSinkOptions parse(SinkContext context) {
    Map<String, Object> producer = new HashMap<>();
    context.options().forEach((k, v) -> {
      if (k.startsWith(PREFIX)) {
        producer.put(k.substring(PREFIX.length()), v);
      }
    });
    if (!producer.containsKey(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)) {
      throw SinkErrors.missingOption("kafka", "kafka.bootstrap.servers", "the brokers to write to, e.g."
          + " option(\"kafka.bootstrap.servers\", \"host1:9092,host2:9092\")");
    }
    for (String owned : List.of(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG)) {
      if (producer.containsKey(owned)) {
        throw new IllegalArgumentException("Kafka option 'kafka." + owned + "' is not supported as keys and values"
            + " are serialized with ByteArraySerializer: make the key and value columns strings or binary instead");
      }
    }
    if (producer.containsKey(ProducerConfig.TRANSACTIONAL_ID_CONFIG)) {
      throw new IllegalArgumentException("Kafka option 'kafka.transactional.id' is not supported: the sink derives"
          + " the transactional id from the query id (stable across restarts); set"
          + " option(\"deliveryGuarantee\", \"exactly_once\") to write with transactions");
    }
    String guarantee = context.option(DELIVERY_GUARANTEE).orElse("at_least_once").toLowerCase(Locale.ROOT)
        .replace('-', '_');
    if (!GUARANTEES.contains(guarantee)) {
      throw SinkErrors.badOption("deliveryGuarantee", guarantee, GUARANTEES);
    }
    boolean exactlyOnce = guarantee.equals("exactly_once");
    if (exactlyOnce && "false".equalsIgnoreCase(String.valueOf(producer.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG)))) {
      throw new IllegalArgumentException("deliveryGuarantee exactly_once needs an idempotent producer, but"
          + " kafka.enable.idempotence is false: remove that option");
    }
    producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    if (exactlyOnce) {
      producer.put(ProducerConfig.ACKS_CONFIG, "all");
    }
    Optional<String> topic = context.option("topic").filter(t -> !t.isBlank());
    return new KafkaSinkOptions(topic, producer, exactlyOnce);
  }

  /** The producer settings plus {@code extra} (e.g. the transactional id). */
  Map<String, Object> producerConfig(Map<String, Object> extra) {
    Map<String, Object> out = new HashMap<>(producerConfig);
    out.putAll(extra);
    return out;
  }

  /** The settings an admin client shares with the producer (brokers, security), without the producer-only ones. */
  Map<String, Object> adminConfig() {
    Map<String, Object> out = new HashMap<>();
    producerConfig.forEach((k, v) -> {
      if (org.apache.kafka.clients.admin.AdminClientConfig.configNames().contains(k)) {
        out.put(k, v);
      }
    });
    return out;
  }
}
