package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code service:} section: what it reads into, its defaults, and each mistake's message with path and line. */
class ServiceConfigTest {
  private static final String PIPELINES = "warehouse: file:///tmp/wh\n"
      + "pipelines:\n"
      + "  - {name: b, layer: bronze, source: {format: json, path: in}, sink: {table: bronze/b}}\n";

  private static List<String> problems(String service, Map<String, String> env) {
    ConfigException e = catchThrowableOfType(ConfigException.class,
        () -> ConfigLoader.parse(PIPELINES + service, "test.yaml", env));
    assertThat(e).as("expected the config to be refused").isNotNull();
    return e.problems().stream().map(ConfigProblem::toString).toList();
  }

  @Test
  void readsTheJobStoreWithThePasswordFromTheEnvironment() {
    SluiceConfig c = ConfigLoader.parse(PIPELINES + "service:\n"
        + "  job_store: {url: \"${env:SLUICE_DB_URL}\", user: sluice, password: \"${env:SLUICE_DB_PASSWORD}\","
        + " pool_size: 4}\n"
        + "  instance_id: node-a\n"
        + "  checkin_interval: 7s\n", "test.yaml",
        Map.of("SLUICE_DB_URL", "jdbc:postgresql://db:5432/sluice", "SLUICE_DB_PASSWORD", "hunter2"));
    ServiceConfig s = c.service().orElseThrow();
    assertThat(s.jobStore().url()).isEqualTo("jdbc:postgresql://db:5432/sluice");
    assertThat(s.jobStore().user()).contains("sluice");
    assertThat(s.jobStore().password()).hasValueSatisfying(p -> assertThat(p.value()).isEqualTo("hunter2"));
    assertThat(s.jobStore().poolSize()).isEqualTo(4);
    assertThat(s.instanceId()).contains("node-a");
    assertThat(s.checkinInterval().duration()).isEqualTo(Duration.ofSeconds(7));
    assertThat(s.toString()).as("the password is never printed").doesNotContain("hunter2");
  }

  @Test
  void defaultsAndNoSectionAtAll() {
    ServiceConfig s = ConfigLoader.parse(PIPELINES + "service: {job_store: {url: \"jdbc:postgresql://db/sluice\"}}\n",
        "test.yaml", Map.of()).service().orElseThrow();
    assertThat(s.instanceId()).isEmpty();
    assertThat(s.checkinInterval().duration()).isEqualTo(Duration.ofMillis(7500));
    assertThat(s.jobStore().poolSize()).isEqualTo(ServiceConfig.JobStore.DEFAULT_POOL_SIZE);
    assertThat(s.jobStore().password()).isEmpty();
    assertThat(ConfigLoader.parse(PIPELINES, "test.yaml", Map.of()).service()).as("the RAM store").isEmpty();
  }

  @Test
  void eachMistakeNamesItsKeyAndTheFix() {
    assertThat(problems("service: {instance_id: a}\n", Map.of())).containsExactly(
        "service.job_store: required (line 4)");
    assertThat(problems("service:\n  job_store: {url: \"jdbc:mysql://db/sluice\", password: hunter2, pool_size: 1}\n"
        + "  instance_id: \"node a\"\n  checkin_interval: 10 ms\n  checkin: 1s\n", Map.of())).containsExactly(
        "service.job_store.url: `jdbc:mysql://db/sluice` is not a PostgreSQL JDBC URL: the cluster job store runs on"
            + " PostgreSQL only (line 5)",
        "service.job_store.password: a literal credential is refused: credentials are read only from environment"
            + " variables (line 5)",
        "service.job_store.pool_size: must be at least 2, got 1 (line 5)",
        "service.instance_id: `node a` is not a node name: use letters, digits, `.`, `_` and `-` (at most 80) (line 6)",
        "service.checkin_interval: must be at least 100 ms, got 10 ms (line 7)",
        "service.checkin: unknown key `checkin`; did you mean `checkin_interval`? (line 8)");
    assertThat(problems("service: {job_store: {url: \"${env:SLUICE_DB_URL}\"}}\n", Map.of())).containsExactly(
        "service.job_store.url: environment variable SLUICE_DB_URL is not set (line 4)");
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(PIPELINES
        + "service: {job_store: {url: \"jdbc:postgresql://db/s\", password: \"${env:PW:-hunter2}\"}}\n", "test.yaml",
        Map.of()));
    assertThat(e.getMessage()).contains("service.job_store.password: a credential must not have a default value")
        .contains("e.g. ${env:SLUICE_DB_PASSWORD}").doesNotContain("hunter2");
  }
}
