package dev.sluice.orchestration.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice validate} binds what will run: expressions, columns and options, at their YAML lines. */
class ValidateCommandTest {
  @TempDir Path dir;

  private record Result(int exitCode, String out, String err) {}

  private Result validate(String yaml) throws IOException {
    Path file = dir.resolve("pipelines.yaml");
    Files.writeString(file, yaml);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = SluiceCli.execute(new String[] {"validate", file.toString()}, new PrintWriter(out, true),
        new PrintWriter(err, true), false);
    return new Result(code, out.toString(), err.toString());
  }

  private static final String BRONZE = """
      warehouse: /tmp/wh
      pipelines:
        - name: orders_bronze
          layer: bronze
          source:
            format: json
            path: in
            options: {maxFilesPerTrigger: 2}
            schema:
              - {name: order_id, type: string}
              - {name: customer_id, type: string}
              - {name: amount, type: "decimal(10,2)"}
              - {name: event_time, type: timestamp}
          sink: {table: bronze/orders}
      """;

  @Test
  void expressionsColumnsAndOptionsAreBoundAgainstTheSchemaEachPipelineWillSee() throws IOException {
    Result r = validate(BRONZE.replace("maxFilesPerTrigger", "maxFilezPerTrigger") + """
          - name: orders_silver
            layer: silver
            source: {pipeline: orders_bronze}
            columns: [{name: cents, expr: "amount * 100"}]
            expectations:
              - {name: has_id, condition: "order_id IS NOT NUL", action: quarantine}
              - {name: typo, condition: "amuont > 0"}
            dedup: {keys: [order_id], watermark: {column: event_tme, delay: 1 hour}}
            sink: {table: silver/orders, merge: {keys: [orderid], sequence_by: event_time}}
          - name: revenue_gold
            layer: gold
            source: {pipeline: orders_silver}
            joins:
              - path: customers
                format: json
                options: {inferSchma: true}
                schema: [{name: customer_id, type: string}, {name: tier, type: string}]
                on: [customer_id]
            aggregate: {group_by: [teir], measures: ["sum(amount) AS revenue", "max(cents) AS top"]}
            sink: {table: gold/revenue}
        """);
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
    assertThat(r.err())
        .contains("pipelines[0].source.options.maxFilezPerTrigger: unknown option `maxFilezPerTrigger` for format"
            + " json; did you mean `maxfilespertrigger`? (line 8)")
        .contains("pipelines[1].expectations[0].condition: `order_id IS NOT NUL`: ")
        .contains("pipelines[1].expectations[1].condition: `amuont > 0`: ")
        .contains("pipelines[1].dedup.watermark.column: no column `event_tme`; did you mean `event_time`? (line 22)")
        .contains("pipelines[1].sink.merge.keys[0]: no column `orderid`; did you mean `order_id`? (line 23)")
        .as("gold reads a silver table that has problems: not bound").doesNotContain("pipelines[2]");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void goldIsBoundToSilversTableAndTheJoinedDimension() throws IOException {
    Result r = validate(BRONZE + """
          - name: orders_silver
            layer: silver
            source: {pipeline: orders_bronze}
            sink: {table: silver/orders, merge: {keys: [order_id]}}
          - name: revenue_gold
            layer: gold
            source: {pipeline: orders_silver}
            joins:
              - path: customers
                format: json
                options: {inferSchma: true}
                schema: [{name: customer_id, type: string}, {name: tier, type: string}]
                on: [customer_id]
            aggregate: {group_by: [teir], measures: ["sum(amount) AS revenue", "max(amout) AS top"]}
            sink: {table: gold/revenue}
        """);
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
    assertThat(r.err()).contains("3 problems in the Sluice config")
        .contains("pipelines[2].joins[0].options.inferSchma: unknown option `inferSchma` for format json; did you"
            + " mean `inferschema`? (line 25)")
        .contains("pipelines[2].aggregate.group_by[0]: no column `teir`; did you mean `tier`? (line 28)")
        .contains("pipelines[2].aggregate.measures[1]: `amout`: Unknown column `amout`");
  }

  @Test
  void aDerivedColumnIsBoundToTheColumnsBeforeIt() throws IOException {
    Result r = validate(BRONZE + """
          - name: orders_silver
            layer: silver
            source: {pipeline: orders_bronze}
            columns: [{name: cents, expr: "amount * 100"}, {name: big, expr: "cents > 10 AND nope(amount)"}]
            sink: {table: silver/orders, merge: {keys: [order_id]}}
        """);
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
    assertThat(r.err()).contains("1 problem in the Sluice config")
        .contains("pipelines[0].columns[1].expr: `cents > 10 AND nope(amount)`: Unknown function `nope`".replace(
            "pipelines[0]", "pipelines[1]"))
        .contains("(line 18)");
  }

  @Test
  void aValidConfigPassesAndWhatCannotBeCheckedIsSaid() throws IOException {
    Result r = validate(BRONZE + """
          - name: orders_silver
            layer: silver
            source: {pipeline: orders_bronze}
            columns: [{name: cents, expr: "CAST(amount * 100 AS BIGINT)"}]
            expectations: [{name: has_id, condition: "order_id IS NOT NULL", action: quarantine}]
            sink: {table: silver/orders, merge: {keys: [order_id], sequence_by: event_time, scd: 2}}
          - name: revenue_gold
            layer: gold
            source: {pipeline: orders_silver}
            joins: [{table: silver/customers, on: [customer_id]}]
            aggregate: {group_by: [tier], measures: ["sum(cents) AS revenue"]}
            sink: {table: gold/revenue}
          - name: raw_bronze
            layer: bronze
            source: {format: csv, path: raw}
            sink: {table: bronze/raw}
        """);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).startsWith("OK: 4 pipelines")
        .contains("note: revenue_gold: the schema of joins[0] is known only at run time, so its columns and"
            + " expressions are not checked")
        .contains("note: raw_bronze: no source.schema, so its columns are inferred from the files at the first run")
        .contains("orders_bronze (bronze) -> file:///tmp/wh/bronze/orders");
  }

  @Test
  void aStreamJoinIsCheckedOnBothSidesAndWhatFollowsSeesTheJoinedColumns() throws IOException {
    Result r = validate(BRONZE + """
          - name: payments_bronze
            layer: bronze
            source:
              format: json
              path: payments
              schema: [{name: order_id, type: string}, {name: paid_at, type: timestamp}]
            sink: {table: bronze/payments}
          - name: paid_orders
            layer: silver
            source: {pipeline: orders_bronze}
            join_stream:
              pipeline: payments_bronze
              keys: [order_id]
              within: 1 hour
              left_watermark: {column: event_time, delay: 10 minutes}
              right_watermark: {column: paid_tme, delay: 10 minutes}
            columns: [{name: delay_s, expr: "paid_at - event_time"}]
            filter: "_batch_id_right >= 0 AND amount > 0"
            sink: {table: silver/paid_orders, merge: {keys: [order_id]}}
        """);
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
    assertThat(r.err()).contains("pipelines[2].join_stream.right_watermark.column: no column `paid_tme` (line 30)")
        .as("the columns and filter after the join are bound only once the join is right")
        .doesNotContain("delay_s").doesNotContain("_batch_id_right");

    Result fixed = validate(BRONZE + """
          - name: payments_bronze
            layer: bronze
            source:
              format: json
              path: payments
              schema: [{name: order_id, type: string}, {name: paid_at, type: timestamp}]
            sink: {table: bronze/payments}
          - name: paid_orders
            layer: silver
            source: {pipeline: orders_bronze}
            join_stream:
              pipeline: payments_bronze
              keys: [order_id]
              within: 1 hour
              left_watermark: {column: event_time, delay: 10 minutes}
              right_watermark: {column: paid_at, delay: 10 minutes}
            filter: "_batch_id_right >= 0 AND amount > 0 AND paid_at IS NOT NULL"
            sink: {table: silver/paid_orders, merge: {keys: [order_id]}}
        """);
    assertThat(fixed.exitCode()).as(fixed.toString()).isZero();
  }

  @Test
  void aKafkaBronzeTakesClientOptionsAndBindsSilverToItsColumns() throws IOException {
    String kafka = """
        warehouse: /tmp/wh
        pipelines:
          - name: clicks_bronze
            layer: bronze
            source:
              format: kafka
              bootstrap_servers: localhost:9092
              topics: [clicks]
              schema: [{name: user_id, type: string}, {name: url, type: string}]
              options: {kafka.security.protocol: PLAINTEXT, failOnDataLoss: "false", minOffsetsPerTrigger: 10}
            sink: {table: bronze/clicks}
          - name: clicks_silver
            layer: silver
            source: {pipeline: clicks_bronze}
            expectations: [{name: from_kafka, condition: "_source IS NOT NULL AND _kafka_timestamp IS NOT NULL"}]
            sink: {table: silver/clicks, merge: {keys: [user_id], sequence_by: _kafka_timestamp}}
        """;
    Result ok = validate(kafka);
    assertThat(ok.exitCode()).as(ok.toString()).isZero();
    Result bad = validate(kafka.replace("minOffsetsPerTrigger", "minOffsetPerTrigger"));
    assertThat(bad.exitCode()).isNotZero();
    assertThat(bad.out() + bad.err()).contains("pipelines[0].source.options.minOffsetPerTrigger: unknown option");
  }
}
