package dev.sluice.ingestion.source.internal.kafka;

import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceContext;
import dev.sluice.ingestion.source.SourceProvider;
import java.util.Set;

/** Creates {@code kafka} sources ({@code readStream().format("kafka")}); found by {@link java.util.ServiceLoader}. */
public final class KafkaSourceProvider implements SourceProvider {
  @Override
  public Set<String> formats() {
    return Set.of(KafkaSourceOptions.FORMAT);
  }

  @Override
  public Set<String> options() {
    return KafkaSourceOptions.KEYS;
  }

  @Override
  public Set<String> optionPrefixes() {
    return Set.of(KafkaSourceOptions.PREFIX);
  }

  /**
   * @throws IllegalArgumentException naming a missing or bad option, or a declared schema
   */
  @Override
  public Source create(String format, SourceContext context) {
    if (context.userSchema().isPresent()) {
      throw new IllegalArgumentException("The kafka source does not take a schema: its columns are always "
          + KafkaRecords.WITH_HEADERS.fields().stream().map(f -> f.name()).toList() + " (headers with includeHeaders);"
          + " remove the schema and parse the value, e.g. from_json(CAST(value AS STRING), ...)");
    }
    if (context.path().isPresent()) {
      throw new IllegalArgumentException("The kafka source reads no path ('" + context.path().get() + "'): call"
          + " load() without a path and name the topics with option subscribe, subscribePattern or assign");
    }
    return new KafkaSource(KafkaSourceOptions.parse(context), context.metadataLocation(), context.clock());
  }
}
