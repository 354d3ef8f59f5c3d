package dev.sluice.config.internal;

import dev.sluice.config.Layer;
import java.util.Map;
import java.util.Set;

/** Which keys each layer accepts, and where a misplaced key belongs. */
final class LayerRules {
  private static final Set<String> COMMON = Set.of("name", "layer", "source", "sink", "trigger", "schedule", "after",
      "maintenance");
  private static final Map<Layer, Set<String>> PIPELINE_KEYS = Map.of(
      Layer.BRONZE, COMMON,
      Layer.SILVER, union(COMMON, Set.of("process", "join_stream", "columns", "filter", "expectations", "dedup", "state_store")),
      Layer.GOLD, union(COMMON, Set.of("joins", "columns", "filter", "aggregate", "state_store")));
  private static final Set<String> FILE_SOURCE_KEYS = Set.of("format", "path", "options", "schema", "schema_evolution");
  /** A bronze source of Kafka topics. */
  static final Set<String> KAFKA_SOURCE_KEYS = Set.of("format", "bootstrap_servers", "topics", "value_format",
      "schema", "schema_evolution", "starting_offsets", "max_offsets_per_trigger", "options");
  private static final Set<String> TABLE_SOURCE_KEYS = Set.of("format", "pipeline", "table", "options");

  private LayerRules() {}

  static boolean allowsPipelineKey(Layer layer, String key) {
    return PIPELINE_KEYS.get(layer).contains(key);
  }

  static boolean allowsSourceKey(Layer layer, String key) {
    return layer == Layer.BRONZE ? FILE_SOURCE_KEYS.contains(key) || KAFKA_SOURCE_KEYS.contains(key)
        : TABLE_SOURCE_KEYS.contains(key);
  }

  static boolean allowsFileSourceKey(String key) {
    return FILE_SOURCE_KEYS.contains(key);
  }

  static String pipelineKeyHint(String key) {
    switch (key) {
      case "columns":
      case "filter":
        return "bronze keeps the input as read; derive columns and filter in a silver (or gold) pipeline";
      case "expectations":
      case "dedup":
        return "expectations and dedup belong to silver pipelines";
      case "process":
      case "join_stream":
        return "process (a StatefulProcessor from a jar) and join_stream (a stream-stream join) belong to silver"
            + " pipelines, whose source is a stream of bronze rows";
      case "state_store":
        return "a bronze pipeline keeps no state; state_store applies to silver dedup and gold aggregates";
      default:
        return "joins and aggregates belong to gold pipelines";
    }
  }

  static String sourceKeyHint(Layer layer) {
    return layer == Layer.BRONZE
        ? "a bronze pipeline reads files (`format` and `path`) or Kafka topics (`format: kafka`, `bootstrap_servers`,"
            + " `topics`)"
        : "a " + layer.yamlName() + " pipeline reads a Delta table: give `pipeline:` (an upstream pipeline) or"
            + " `table:`";
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    java.util.Set<String> all = new java.util.HashSet<>(a);
    all.addAll(b);
    return Set.copyOf(all);
  }
}
