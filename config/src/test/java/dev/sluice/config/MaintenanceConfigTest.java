package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code maintenance:} in {@code defaults} and per pipeline. */
class MaintenanceConfigTest {
  private static SluiceConfig parse(String defaults, String pipelineMaintenance) {
    return ConfigLoader.parse("warehouse: file:///w\n" + defaults + """
        pipelines:
          - name: orders_bronze
            layer: bronze
            source: {format: json, path: /in}
            sink: {table: bronze/orders}
          - name: orders_silver
            layer: silver
            source: {pipeline: orders_bronze}
            sink: {table: silver/orders, merge: {keys: [id]}}
        """ + pipelineMaintenance, "t.yaml", Map.of());
  }

  @Test
  void defaultsApplyToEveryPipelineAndAPipelinesTasksReplaceThem() {
    SluiceConfig c = parse("""
        defaults:
          maintenance:
            optimize: "0 3 * * *"
            vacuum: {schedule: weekly, retain: 168h}
        """, """
            maintenance:
              optimize: {schedule: daily, zorder_by: [customer, day], target_file_size: 64MB, where: "day > '2026'"}
              vacuum: off
        """);

    MaintenanceConfig bronze = c.pipeline("orders_bronze").orElseThrow().maintenance();
    assertThat(bronze.optimize().orElseThrow().schedule().quartzCron()).isEqualTo("0 0 3 * * ?");
    assertThat(bronze.optimize().orElseThrow().schedule().text()).isEqualTo("0 3 * * *");
    assertThat(bronze.vacuum().orElseThrow().schedule().quartzCron()).isEqualTo("0 0 0 ? * SUN");
    assertThat(bronze.vacuum().orElseThrow().retain().orElseThrow().duration()).isEqualTo(Duration.ofHours(168));

    MaintenanceConfig silver = c.pipeline("orders_silver").orElseThrow().maintenance();
    MaintenanceConfig.OptimizeTask o = silver.optimize().orElseThrow();
    assertThat(o.schedule().quartzCron()).isEqualTo("0 0 0 * * ?");
    assertThat(o.zorderBy()).containsExactly("customer", "day");
    assertThat(o.targetFileSize()).hasValue(64L << 20);
    assertThat(o.where()).hasValue("day > '2026'");
    assertThat(silver.vacuum()).isEmpty();
  }

  @Test
  void withoutTheSectionThereIsNoMaintenance() {
    SluiceConfig c = parse("", "");
    assertThat(c.pipelines()).allSatisfy(p -> assertThat(p.maintenance().isEmpty()).isTrue());
  }

  @Test
  void unixCronWeekdaysAndQuartzExpressionsBecomeQuartzSchedules() {
    SluiceConfig c = parse("", """
            maintenance: {optimize: "30 2 * * 1-5", vacuum: "0 0 4 ? * SAT"}
        """);
    MaintenanceConfig m = c.pipeline("orders_silver").orElseThrow().maintenance();
    assertThat(m.optimize().orElseThrow().schedule().quartzCron()).isEqualTo("0 30 2 ? * 2-6");
    assertThat(m.vacuum().orElseThrow().schedule().quartzCron()).isEqualTo("0 0 4 ? * SAT");
  }

  @Test
  void badSchedulesSizesRetentionsAndBothOrderingsAreReportedAtTheirPath() {
    assertThatThrownBy(() -> parse("""
        defaults:
          maintenance: {optimize: sometimes, vacuum: {schedule: weekly, retain: forever}}
        """, """
            maintenance:
              optimize: {schedule: daily, zorder_by: [a], cluster_by: [b], target_file_size: huge}
              vaccum: weekly
        """))
        .isInstanceOf(ConfigException.class)
        .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::path).containsAll(List.of(
            "defaults.maintenance.optimize", "defaults.maintenance.vacuum.retain",
            "pipelines[1].maintenance.optimize.cluster_by", "pipelines[1].maintenance.optimize.target_file_size",
            "pipelines[1].maintenance.vaccum")))
        .hasMessageContaining("`sometimes` is not a schedule")
        .hasMessageContaining("did you mean `vacuum`?");
  }
}
