package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code state_store} in {@code defaults} or a stateful pipeline; problems at their paths. */
class StateStoreConfigTest {
  private static String yaml(String defaults, String silver, String bronze) {
    return "warehouse: file:///wh\n"
        + (defaults == null ? "" : "defaults:\n  state_store: " + defaults + "\n")
        + "pipelines:\n"
        + "  - name: b\n"
        + "    layer: bronze\n"
        + "    source: {format: json, path: in}\n"
        + (bronze == null ? "" : "    state_store: " + bronze + "\n")
        + "    sink: {table: bronze/b}\n"
        + "  - name: s\n"
        + "    layer: silver\n"
        + "    source: {pipeline: b}\n"
        + "    dedup: {keys: [id], watermark: {column: ts, delay: 1 hour}}\n"
        + (silver == null ? "" : "    state_store: " + silver + "\n")
        + "    sink: {table: silver/s, merge: {keys: [id]}}\n";
  }

  private static SluiceConfig parse(String yaml) {
    return ConfigLoader.parse(yaml, "test.yaml", Map.of());
  }

  private static StateStoreConfig silver(String yaml) {
    return parse(yaml).pipeline("s").orElseThrow().stateStore();
  }

  private static java.util.List<String> problems(String yaml) {
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> parse(yaml));
    return e.problems().stream().map(ConfigProblem::toString).toList();
  }

  @Test
  void defaultsToInMemoryAndPipelinesInheritOrOverrideTheDefaults() {
    assertThat(silver(yaml(null, null, null))).isEqualTo(StateStoreConfig.inMemory());
    assertThat(silver(yaml("rocksdb", null, null)).provider()).isEqualTo("rocksdb");
    assertThat(silver(yaml("rocksdb", "in_memory", null)).provider()).isEqualTo("inmemory");
    StateStoreConfig full = silver(yaml(null, "{provider: rocksdb, memory: 128m, local_dir: /mnt/ssd}", null));
    assertThat(full).isEqualTo(new StateStoreConfig("rocksdb", Optional.of("128m"), Optional.of("/mnt/ssd")));
    assertThat(full.options()).containsExactly(Map.entry("stateStore", "rocksdb"),
        Map.entry("stateStore.rocksdb.memory", "128m"), Map.entry("stateStore.localDir", "/mnt/ssd"));
    assertThat(parse(yaml("rocksdb", null, null)).defaults().stateStore().provider()).isEqualTo("rocksdb");
  }

  @Test
  void badValuesAreProblemsAtTheirPaths() {
    assertThat(problems(yaml("rocksdbb", null, null))).containsExactly(
        "defaults.state_store: `rocksdbb` is not a state store: use in_memory, rocksdb or {provider: rocksdb, memory: "
            + "64m, local_dir: <folder>} (line 3)");
    assertThat(problems(yaml(null, "{provider: rocksdb, memory: lots}", null))).containsExactly(
        "pipelines[1].state_store.memory: `lots` is not a size (line 11)");
    assertThat(problems(yaml(null, "{provider: in_memory, memory: 64m}", null))).hasSize(1)
        .allSatisfy(p -> assertThat(p).startsWith("pipelines[1].state_store.memory: `memory` bounds RocksDB's"));
    assertThat(problems(yaml(null, "{memory: 64m}", null))).hasSize(1)
        .allSatisfy(p -> assertThat(p).startsWith("pipelines[1].state_store.provider: required"));
    assertThat(problems(yaml(null, "{provider: rocksdb, cache: 1g}", null))).hasSize(1)
        .allSatisfy(p -> assertThat(p).startsWith("pipelines[1].state_store.cache:"));
    assertThat(problems(yaml(null, null, "rocksdb"))).containsExactly(
        "pipelines[0].state_store: `state_store` is not allowed in a bronze pipeline (line 6)");
  }
}
