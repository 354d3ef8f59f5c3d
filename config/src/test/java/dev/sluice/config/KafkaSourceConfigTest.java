package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A bronze source of Kafka topics in YAML: its keys, defaults, and refusals (literal credentials included). */
class KafkaSourceConfigTest {
  private static final String HEAD = "warehouse: /tmp/wh\npipelines:\n  - name: clicks_bronze\n    layer: bronze\n"
      + "    sink: {table: bronze/clicks}\n";

  private static SluiceConfig parse(String source, Map<String, String> env) {
    return ConfigLoader.parse(HEAD + source, "test.yaml", env);
  }

  private static List<String> problems(String source, Map<String, String> env) {
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> parse(source, env));
    assertThat(e).as("expected config problems").isNotNull();
    return e.problems().stream().map(ConfigProblem::toString).toList();
  }

  @Test
  void readsEveryKafkaKey() {
    SluiceConfig config = parse("""
            source:
              format: kafka
              bootstrap_servers: ${env:BROKERS}
              topics: [clicks, views]
              value_format: csv
              schema: [{name: user, type: string}, {name: n, type: long}]
              starting_offsets: earliest
              max_offsets_per_trigger: 500
              options: {kafka.security.protocol: SASL_SSL, kafka.sasl.jaas.config: "${env:JAAS}"}
        """, Map.of("BROKERS", "b1:9092", "JAAS", "secret-config"));
    SourceConfig source = config.pipelines().get(0).source();
    assertThat(source.format()).isEqualTo(SourceFormat.KAFKA);
    KafkaSourceConfig kafka = source.kafka().orElseThrow();
    assertThat(kafka.bootstrapServers()).isEqualTo("b1:9092");
    assertThat(kafka.topics()).containsExactly("clicks", "views");
    assertThat(kafka.valueFormat()).isEqualTo(KafkaSourceConfig.ValueFormat.CSV);
    assertThat(kafka.startingOffsets()).contains("earliest");
    assertThat(kafka.maxOffsetsPerTrigger()).contains(500L);
    assertThat(source.options()).containsEntry("kafka.sasl.jaas.config", "secret-config")
        .doesNotContainKey("maxFilesPerTrigger");
    assertThat(source.schema()).extracting(ColumnSpec::name).containsExactly("user", "n");
  }

  @Test
  void textValuesNeedNoSchemaButJsonDoes() {
    assertThat(parse("    source: {format: kafka, bootstrap_servers: b:9092, topics: [t], value_format: text}\n",
        Map.of()).pipelines().get(0).source().kafka()).isPresent();
    assertThat(problems("    source: {format: kafka, bootstrap_servers: b:9092, topics: [t]}\n", Map.of()))
        .anySatisfy(p -> assertThat(p).contains("pipelines[0].source.schema").contains("required for value_format json"));
  }

  @Test
  void refusesLiteralCredentialsAndFileKeys() {
    List<String> problems = problems("""
            source:
              format: kafka
              bootstrap_servers: b:9092
              topics: [t]
              value_format: text
              path: /data
              options: {kafka.sasl.jaas.config: "org.apache.kafka.common.security.plain.PlainLoginModule required password=hunter2;"}
        """, Map.of());
    assertThat(problems).anySatisfy(p -> assertThat(p).contains("pipelines[0].source.path")
        .contains("not used by a kafka source"));
    assertThat(problems).anySatisfy(p -> assertThat(p).contains("kafka.sasl.jaas.config")
        .contains("literal credential is refused"));
    assertThat(String.join("\n", problems)).doesNotContain("hunter2");
  }

  @Test
  void refusesMissingTopicsAndBadLimit() {
    List<String> problems = problems("    source: {format: kafka, bootstrap_servers: b:9092, value_format: text,"
        + " max_offsets_per_trigger: 0}\n", Map.of());
    assertThat(problems).anySatisfy(p -> assertThat(p).contains("pipelines[0].source.topics"));
    assertThat(problems).anySatisfy(p -> assertThat(p).contains("pipelines[0].source.max_offsets_per_trigger"));
  }
}
