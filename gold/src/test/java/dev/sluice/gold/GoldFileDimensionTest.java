package dev.sluice.gold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.AnalysisException;
import dev.sluice.ingestion.Trigger;
import dev.sluice.table.Table;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A join's static side read from files must exist: a missing dimension is not an empty one. */
class GoldFileDimensionTest {
  @TempDir Path dir;

  private SluiceConfig config(Path dimension, String type) {
    return ConfigLoader.parse("""
        warehouse: %s
        pipelines:
          - name: revenue_gold
            layer: gold
            source: {table: silver/orders}
            joins:
              - path: %s
                format: json
                schema: [{name: customer_id, type: string}, {name: tier, type: string}]
                on: [customer_id]
                type: %s
            aggregate:
              group_by: [tier]
              measures: ["count(*) AS orders"]
              output_mode: complete
            sink: {table: gold/by_tier}
        """.formatted(dir.resolve("wh").toUri(), dimension, type), "test.yaml", Map.of());
  }

  @Test
  void aMissingDimensionFolderFailsTheRunNamingThePath() {
    Path missing = dir.resolve("dims/customers");
    for (String type : List.of("left", "inner")) {
      SluiceConfig config = config(missing, type);
      SluiceSession session = SluiceSession.create();
      Table silver = session.table(config.tableUri("silver/orders").toString());
      if (!silver.exists()) {
        silver.create(GoldFixture.ORDERS).enableChangeDataFeed().commit();
        silver.newAppend().rows(List.of(GoldFixture.order(1, "c1", "10.00", "paid", "10:00:00"))).commit();
      }
      assertThatThrownBy(() -> GoldPipeline.start(session, config, config.pipeline("revenue_gold").orElseThrow(),
          Trigger.availableNow()))
          .as(type + " join: start() checks the plan, so the run fails before anything is read")
          .isInstanceOf(AnalysisException.class)
          .hasMessageContaining("The static side of the join, json files at")
          .hasMessageContaining(missing + " does not exist (no file and no folder at that path)")
          .hasMessageContaining("Create it, or fix the join's path");
      assertThat(session.table(config.tableUri("gold/by_tier").toString()).exists()).isFalse();
    }
  }
}
