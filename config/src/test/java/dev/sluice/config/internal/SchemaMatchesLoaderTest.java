package dev.sluice.config.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The published JSON Schema describes exactly the keys and names the loader accepts. */
class SchemaMatchesLoaderTest {
  private static JsonNode schema;
  private static final Map<String, JsonNode> NODES = new TreeMap<>();

  @BeforeAll
  static void readSchema() throws IOException {
    try (InputStream in = SchemaMatchesLoaderTest.class.getResourceAsStream("/sluice-config.schema.json")) {
      assertThat(in).as("sluice-config.schema.json on the classpath").isNotNull();
      schema = new ObjectMapper().readTree(in);
    }
    walk(schema, "");
  }

  /** Records every key path the schema allows, as Shape.paths() writes them. */
  private static void walk(JsonNode node, String prefix) {
    node = resolve(node);
    node.path("properties").fields().forEachRemaining(entry -> {
      String path = prefix.isEmpty() ? entry.getKey() : prefix + "." + entry.getKey();
      JsonNode value = resolve(entry.getValue());
      NODES.put(path, value);
      JsonNode items = resolve(value.path("items"));
      if (items.has("properties") || items.has("oneOf")) {
        walk(items, path + "[]");
      }
      if (value.path("additionalProperties").isObject()) {
        NODES.put(path + ".*", value.path("additionalProperties"));
      }
      walk(value, path);
    });
    for (String alternatives : new String[] {"oneOf", "anyOf"}) {
      node.path(alternatives).forEach(alternative -> walk(alternative, prefix));
    }
  }

  private static JsonNode resolve(JsonNode node) {
    while (node.has("$ref")) {
      String ref = node.get("$ref").asText();
      assertThat(ref).startsWith("#/$defs/");
      node = schema.path("$defs").path(ref.substring("#/$defs/".length()));
      assertThat(node.isMissingNode()).as("schema defines %s", ref).isFalse();
    }
    return node;
  }

  @Test
  void schemaIsDraft202012() {
    assertThat(schema.path("$schema").asText()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
  }

  @Test
  void everyKeyTheLoaderAcceptsIsInTheSchemaAndViceVersa() {
    Set<String> loader = ConfigShape.ROOT.paths();
    assertThat(loader).contains("pipelines[].sink.merge.sequence_by", "pipelines[].source.options.*",
        "defaults.trigger.processing_time", "pipelines[].schedule.cron");
    Set<String> notInSchema = new TreeSet<>(loader);
    notInSchema.removeAll(NODES.keySet());
    Set<String> notInLoader = new TreeSet<>(NODES.keySet());
    notInLoader.removeAll(loader);
    assertThat(notInSchema).as("keys the loader accepts but the schema lacks").isEmpty();
    assertThat(notInLoader).as("keys the schema has but the loader refuses").isEmpty();
  }

  @Test
  void enumeratedValuesMatchTheLoaders() {
    assertEnum("pipelines[].layer", Names.LAYERS.keySet());
    assertEnum("pipelines[].source.format", Names.FORMATS.keySet());
    assertEnum("pipelines[].source.schema_evolution", Names.SCHEMA_EVOLUTIONS.keySet());
    assertEnum("pipelines[].expectations[].action", Names.ACTIONS.keySet());
    assertEnum("pipelines[].joins[].format", Names.JOIN_FORMATS.keySet());
    assertEnum("pipelines[].source.value_format", Names.VALUE_FORMATS.keySet());
    assertEnum("pipelines[].joins[].type", Names.JOIN_TYPES.keySet());
    assertEnum("pipelines[].joins[].refresh", Names.REFRESHES.keySet());
    assertEnum("pipelines[].aggregate.output_mode", Names.OUTPUT_MODES.keySet());
    assertEnum("pipelines[].sink.merge.scd", Names.SCD_TYPES.keySet());
    assertEnum("pipelines[].aggregate.window.type", Names.WINDOW_TYPES.keySet());
    assertEnum("pipelines[].process.output_mode", Names.PROCESS_MODES.keySet());
    assertEnum("pipelines[].process.timeout", Names.TIMEOUTS.keySet());
    assertEnum("pipelines[].join_stream.type", Names.STREAM_JOIN_TYPES.keySet());
    assertThat(resolve(schema.path("$defs").path("trigger")).path("oneOf").get(0).path("enum"))
        .extracting(JsonNode::asText).containsExactly(Names.AVAILABLE_NOW, Names.ONCE);
  }

  @Test
  void requiredKeysMatchTheLoaders() {
    assertThat(schema.path("required")).extracting(JsonNode::asText).containsExactly("warehouse", "pipelines");
    assertThat(NODES.get("pipelines[].sink.merge").path("required")).extracting(JsonNode::asText)
        .containsExactly("keys");
    assertThat(NODES.get("pipelines[].aggregate").path("required")).extracting(JsonNode::asText)
        .containsExactly("measures");
  }

  private static void assertEnum(String path, Set<String> expected) {
    JsonNode node = NODES.get(path);
    assertThat(node).as("schema has %s", path).isNotNull();
    Set<String> values = new LinkedHashSet<>();
    node.path("enum").forEach(value -> values.add(value.asText()));
    assertThat(values).as("enum of %s", path).containsExactlyElementsOf(expected);
  }
}
