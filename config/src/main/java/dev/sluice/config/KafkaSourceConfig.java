package dev.sluice.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A bronze source reading Kafka topics: the brokers, the topics, how each record's value is parsed, where a new
 * pipeline starts ({@code earliest}, {@code latest} or Spark's per-partition JSON) and the batch size limit. Other
 * client settings (security) are in {@link SourceConfig#options()} as {@code kafka.*}.
 */
public record KafkaSourceConfig(
    String bootstrapServers,
    List<String> topics,
    ValueFormat valueFormat,
    Optional<String> startingOffsets,
    Optional<Long> maxOffsetsPerTrigger) {
  public KafkaSourceConfig {
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    topics = List.copyOf(topics);
    Objects.requireNonNull(valueFormat, "valueFormat");
    Objects.requireNonNull(startingOffsets, "startingOffsets");
    Objects.requireNonNull(maxOffsetsPerTrigger, "maxOffsetsPerTrigger");
  }

  /** How a record's value is read: a JSON object, a CSV line, or the whole text in one string column. */
  public enum ValueFormat {
    JSON,
    CSV,
    TEXT;

    public String yamlName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
