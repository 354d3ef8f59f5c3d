package dev.sluice.orchestration;

import java.nio.file.Path;

/** The YAML of bronze pipelines reading JSON {@code {"id": n}} records from Kafka, for the CLI and service ITs. */
public final class KafkaBronzeYaml {
  private KafkaBronzeYaml() {}

  public static String pipeline(String name, String servers, String topic, int maxOffsetsPerTrigger) {
    return "  - name: " + name + "\n"
        + "    layer: bronze\n"
        + "    source:\n"
        + "      format: kafka\n"
        + "      bootstrap_servers: " + servers + "\n"
        + "      topics: [" + topic + "]\n"
        + "      value_format: json\n"
        + "      schema: [{name: id, type: long}]\n"
        + "      max_offsets_per_trigger: " + maxOffsetsPerTrigger + "\n"
        + "    sink: {table: bronze/" + name + "}\n";
  }

  /** A whole config: the warehouse in {@code dir}, then the pipelines. */
  public static String config(Path dir, String... pipelines) {
    return "warehouse: " + dir.resolve("warehouse").toUri() + "\npipelines:\n" + String.join("", pipelines);
  }
}
