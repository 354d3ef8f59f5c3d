package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code process} step of a silver pipeline: a processor class from a jar, its keys, mode and timeout. */
class ProcessConfigTest {
  private static String yaml(String layer, String process) {
    return "warehouse: file:///wh\n"
        + "pipelines:\n"
        + "  - name: b\n"
        + "    layer: bronze\n"
        + "    source: {format: json, path: in}\n"
        + "    sink: {table: bronze/b}\n"
        + "  - name: s\n"
        + "    layer: " + layer + "\n"
        + "    source: {pipeline: b}\n"
        + "    process: " + process + "\n"                                  // line 10
        + "    sink: {table: silver/s, merge: {keys: [user]}}\n";
  }

  private static List<String> problems(String layer, String process) {
    ConfigException e = catchThrowableOfType(ConfigException.class,
        () -> ConfigLoader.parse(yaml(layer, process), "test.yaml", Map.of()));
    assertThat(e).as("expected the config to be refused").isNotNull();
    return e.problems().stream().map(ConfigProblem::toString).toList();
  }

  @Test
  void readsEveryKeyWithDefaults() {
    ProcessConfig p = ConfigLoader.parse(yaml("silver", "{class: com.acme.Sessionize, keys: [user], output_mode: update,"
        + " timeout: event_time, options: {gap: 30 minutes}, watermark: {column: ts, delay: 1 minute}}"), "test.yaml",
        Map.of()).pipeline("s").orElseThrow().process().orElseThrow();
    assertThat(p.className()).isEqualTo("com.acme.Sessionize");
    assertThat(p.keys()).containsExactly("user");
    assertThat(p.outputMode()).isEqualTo(ProcessConfig.Mode.UPDATE);
    assertThat(p.timeout()).isEqualTo(ProcessConfig.Timeout.EVENT_TIME);
    assertThat(p.options()).containsEntry("gap", "30 minutes");
    assertThat(p.watermark().orElseThrow().column()).isEqualTo("ts");

    ProcessConfig defaults = ConfigLoader.parse(yaml("silver", "{class: a.B$C, keys: [user]}"), "test.yaml", Map.of())
        .pipeline("s").orElseThrow().process().orElseThrow();
    assertThat(defaults.outputMode()).isEqualTo(ProcessConfig.Mode.APPEND);
    assertThat(defaults.timeout()).isEqualTo(ProcessConfig.Timeout.NONE);
    assertThat(defaults.watermark()).isEmpty();
  }

  @Test
  void mistakesNameTheKey() {
    assertThat(problems("silver", "{keys: [user]}")).containsExactly("pipelines[1].process.class: required (line 10)");
    assertThat(problems("silver", "{class: \"com.acme.My Processor\", keys: [user]}")).containsExactly(
        "pipelines[1].process.class: `com.acme.My Processor` is not a Java class name (line 10)");
    assertThat(problems("silver", "{class: com.acme.P}")).containsExactly(
        "pipelines[1].process.keys: required (line 10)");
    assertThat(problems("silver", "{class: com.acme.P, keys: [user], output_mode: complete}")).containsExactly(
        "pipelines[1].process.output_mode: `complete` is not one of: append, update (line 10)");
    assertThat(problems("silver", "{class: com.acme.P, keys: [user], timeout: event_time}")).containsExactly(
        "pipelines[1].process.timeout: timeout: event_time needs a watermark (line 10)");
    assertThat(problems("silver", "{class: com.acme.P, keys: [user], timeout: procesing_time}")).containsExactly(
        "pipelines[1].process.timeout: `procesing_time` is not one of: none, processing_time, event_time; did you"
            + " mean `processing_time`? (line 10)");
  }

  @Test
  void onlySilverPipelinesProcess() {
    assertThat(problems("gold", "{class: com.acme.P, keys: [user]}"))
        .contains("pipelines[1].process: `process` is not allowed in a gold pipeline (line 10)");
  }
}
