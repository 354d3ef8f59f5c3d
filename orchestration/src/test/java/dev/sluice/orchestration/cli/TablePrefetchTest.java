package dev.sluice.orchestration.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a run reads ahead: every table its pipelines touch, in the order they run. */
class TablePrefetchTest {
  @TempDir Path dir;

  @Test
  void eachSinkSourceAndSideTableOnceInRunOrder() {
    SluiceConfig config = ConfigLoader.parse("""
        warehouse: %s
        pipelines:
          - name: events_silver
            layer: silver
            source: {pipeline: events_bronze}
            sink: {table: silver/events, merge: {keys: [id]}}
            after: [events_bronze]
          - name: events_bronze
            layer: bronze
            source: {format: json, path: %s, schema: [{name: id, type: string}]}
            sink: {table: bronze/events}
        """.formatted(dir.resolve("wh").toUri(), dir.resolve("in")), "test.yaml", Map.of());
    String wh = dir.resolve("wh").toUri().toString();

    assertThat(TablePrefetch.tables(config, Pipelines.withUpstreams(config, java.util.List.of()))).containsExactly(
        config.tableUri("bronze/events").toString(), config.tableUri("bronze/events_quarantine").toString(),
        config.tableUri("silver/events").toString(), config.tableUri("silver/events_quarantine").toString());
    assertThat(config.tableUri("bronze/events").toString()).startsWith(wh);
  }
}
