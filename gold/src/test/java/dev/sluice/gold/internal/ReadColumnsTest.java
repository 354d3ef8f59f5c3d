package dev.sluice.gold.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.PipelineConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReadColumnsTest {
  private static final List<String> SILVER = List.of("order_id", "customer_id", "event_time", "amount", "status",
      "updated_at", "_rescued_data", "_ingested_at", "_source", "_batch_id");

  private static Optional<String> columnsOf(String columns, String measures) {
    String yaml = """
        warehouse: file:///tmp/w
        pipelines:
          - name: revenue_gold
            layer: gold
            source: {table: silver/orders}
            joins: [{table: silver/customers, on: [customer_id], type: left}]
            columns: %s
            filter: "status <> 'cancelled'"
            aggregate:
              group_by: [tier]
              window: {column: event_time, size: 1 minute}
              measures: %s
              output_mode: update
            sink: {table: gold/revenue}
        """.formatted(columns, measures);
    PipelineConfig p = ConfigLoader.parse(yaml, "test.yaml", Map.of()).pipeline("revenue_gold").orElseThrow();
    return ReadColumns.of(p, p.aggregate().orElseThrow(), SILVER);
  }

  @Test
  void readsTheColumnsTheJoinsWindowMeasuresColumnsAndFilterName() {
    assertThat(columnsOf("[{name: doubled, expr: \"amount * 2\"}]", "[\"count(*) AS orders\", \"sum(doubled) AS r\"]"))
        .contains("customer_id,event_time,amount,status");
  }

  @Test
  void aStarThatSelectsColumnsReadsThemAll() {
    assertThat(columnsOf("[{name: raw, expr: \"to_json(struct(*))\"}]", "[\"count(*) AS orders\"]")).isEmpty();
    assertThat(columnsOf("[{name: raw, expr: \"hash(order_id, *)\"}]", "[\"count(*) AS orders\"]")).isEmpty();
  }

  @Test
  void aColumnNamedInsideAnotherWordIsReadToo() {
    // "amount" occurs in "amount_due": kept, never missed.
    assertThat(columnsOf("[{name: due, expr: \"amount_due\"}]", "[\"count(*) AS orders\"]"))
        .contains("customer_id,event_time,amount,status");
  }
}
