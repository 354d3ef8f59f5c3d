package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Each kind of mistake gives its documented message, with the YAML path and line. */
class ConfigErrorsTest {
  private static final String BRONZE = "  - name: b\n"
      + "    layer: bronze\n"
      + "    source: {format: json, path: in}\n"
      + "    sink: {table: bronze/b}\n";

  private static ConfigException failure(String yaml, Map<String, String> env) {
    return catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(yaml, "test.yaml", env));
  }

  private static List<String> problems(String yaml) {
    ConfigException e = failure(yaml, Map.of());
    assertThat(e).as("expected the config to be refused").isNotNull();
    return e.problems().stream().map(ConfigProblem::toString).collect(Collectors.toList());
  }

  @Test
  void reportsEveryProblemOfAFileAtOnceInFileOrder() {
    String yaml = "warehouse: s3a://bucket/wh\n"                       // 1
        + "storage:\n"                                                  // 2
        + "  access_key_id: AKIAREALKEY\n"                              // 3
        + "  secret_access_key: ${env:SECRET:-hunter2}\n"               // 4
        + "pipelines:\n"                                                // 5
        + "  - name: orders_bronze\n"                                   // 6
        + "    layer: bronze\n"                                         // 7
        + "    source: {format: jsonl, path: in}\n"                     // 8
        + "    sink: {table: bronze/orders, merge: {keys: [id]}}\n"     // 9
        + "    columns: [{name: a, expr: \"1\"}]\n"                     // 10
        + "  - name: orders_silver\n"                                   // 11
        + "    layer: silver\n"                                         // 12
        + "    source: {pipeline: orders_bronz}\n"                      // 13
        + "    sink:\n"                                                 // 14
        + "      table: silver/orders\n"                                // 15
        + "      merge:\n"                                              // 16
        + "        sequnce_by: updated_at\n"                            // 17
        + "  - name: revenue_gold\n"                                    // 18
        + "    layer: gold\n"                                           // 19
        + "    source: {pipeline: orders_bronze}\n"                     // 20
        + "    sink: {table: gold/revenue}\n"                           // 21
        + "    after: [orders_silver, nobody]\n"                        // 22
        + "    trigger: every_minute\n";                                // 23
    ConfigException e = failure(yaml, Map.of());

    assertThat(e.problems()).extracting(ConfigProblem::toString).containsExactly(
        "warehouse: `s3a://bucket/wh` must be a file:/// or s3:// URI (write s3:// instead of s3a://) (line 1)",
        "storage.access_key_id: a literal credential is refused: credentials are read only from environment"
            + " variables (line 3)",
        "storage.secret_access_key: a credential must not have a default value: the default would put the secret"
            + " in the file (line 4)",
        "pipelines[0].source.format: `jsonl` is not one of: json, csv, parquet; did you mean `json`? (line 8)",
        "pipelines[0].sink.merge: `merge` is not allowed in a bronze pipeline (line 9)",
        "pipelines[0].columns: `columns` is not allowed in a bronze pipeline (line 10)",
        "pipelines[1].source.pipeline: no pipeline is named `orders_bronz` (line 13)",
        "pipelines[1].sink.merge.keys: required (line 16)",
        "pipelines[1].sink.merge.sequnce_by: unknown key `sequnce_by`; did you mean `sequence_by`? (line 17)",
        "pipelines[2].aggregate: required in a gold pipeline (line 18)",
        "pipelines[2].source.pipeline: a gold pipeline reads a silver pipeline, but `orders_bronze` is bronze"
            + " (line 20)",
        "pipelines[2].after[1]: no pipeline is named `nobody` (line 22)",
        "pipelines[2].trigger: `every_minute` is not a trigger: use available_now, once or {processing_time:"
            + " <interval>} (line 23)");
    assertThat(e.getMessage())
        .startsWith("test.yaml: 13 problems in the Sluice config\n"
            + "  warehouse: `s3a://bucket/wh` must be a file:/// or s3:// URI (write s3:// instead of s3a://) (line 1)\n"
            + "      e.g. file:///var/lib/sluice/warehouse, /var/lib/sluice/warehouse or s3://my-bucket/warehouse\n")
        .contains("  pipelines[1].source.pipeline: no pipeline is named `orders_bronz` (line 13)\n"
            + "      did you mean `orders_bronze`? pipelines: orders_bronze, orders_silver, revenue_gold\n")
        .contains("valid keys here: keys, sequence_by, delete_when, scd")
        .as("a literal secret is never echoed").doesNotContain("AKIAREALKEY").doesNotContain("hunter2");
    assertThat(e.problems().get(1).hint()).contains("${env:AWS_ACCESS_KEY_ID}");
    assertThat(e.problems().get(0).column()).isEqualTo(1);
  }

  @Test
  void wrongTypesSayWhatWasExpected() {
    assertThat(problems("warehouse: file:///w\npipelines:\n"
        + "  - name: s\n"
        + "    layer: silver\n"
        + "    source: {table: bronze/x}\n"
        + "    sink: {table: s, merge: {keys: order_id}}\n"
        + "    expectations: {name: x}\n"
        + "    dedup: [order_id]\n"))
        .containsExactly(
            "pipelines[0].sink.merge.keys: expected a list of column names, got the string `order_id` (line 6)",
            "pipelines[0].expectations: expected a list of expectations {name, condition, action}, got a mapping"
                + " (line 7)",
            "pipelines[0].dedup: expected a mapping {keys, watermark}, got a list (line 8)");
  }

  @Test
  void storageTimeoutsMustBePositiveIntervals() {
    assertThat(problems("warehouse: s3://b/w\nstorage: {socket_timeout: soon, connection_timeout: 0 seconds}\n"
        + "pipelines:\n  - {name: b, layer: bronze, source: {format: parquet, path: in}, sink: {table: b}}\n"))
        .hasSize(2)
        .anySatisfy(p -> assertThat(p).startsWith("storage.socket_timeout: `soon` is not an interval"))
        .anySatisfy(p -> assertThat(p).startsWith("storage.connection_timeout: a timeout must be longer than 0"));
  }

  @Test
  void requiredKeysAndEnumValuesListTheAllowedOnes() {
    assertThat(problems("storage: {region: eu}\npipelines:\n"
        + "  - name: Orders-1\n"
        + "    layer: platinum\n"
        + "    source: {format: json, path: in}\n"))
        .containsExactly(
            "warehouse: required (line 1)",
            "pipelines[0].name: `Orders-1` is not a valid pipeline name: use lower-case letters, digits and _,"
                + " starting with a letter (line 3)",
            "pipelines[0].sink: required (line 3)",
            "pipelines[0].layer: `platinum` is not one of: bronze, silver, gold (line 4)");
  }

  @Test
  void unknownKeysSuggestTheClosestValidKeyAtTheirLevel() {
    List<String> found = problems("warehouse: file:///w\n"
        + "pipeline:\n"
        + "  - {name: b}\n"
        + "defaults: {trigger: once, maxFilesPerTrigger: 3, colour: red}\n");
    assertThat(found).containsExactly(
        "pipelines: required (line 1)",
        "pipeline: unknown key `pipeline`; did you mean `pipelines`? (line 2)",
        "defaults.maxFilesPerTrigger: unknown key `maxFilesPerTrigger`; did you mean `max_files_per_trigger`?"
            + " (line 4)",
        "defaults.colour: unknown key `colour` (line 4)");
  }

  @Test
  void layerRulesAreChecked() {
    assertThat(problems("warehouse: file:///w\npipelines:\n"
        + BRONZE
        + "  - name: s\n"                                                                      // 7
        + "    layer: silver\n"
        + "    source: {pipeline: b, path: in}\n"                                              // 9
        + "    joins: [{table: t, on: [k]}]\n"                                                 // 10
        + "    sink: {table: silver/s}\n"                                                      // 11
        + "  - name: g\n"                                                                      // 12
        + "    layer: gold\n"
        + "    source: {pipeline: s}\n"
        + "    dedup: {keys: [k]}\n"                                                           // 15
        + "    aggregate:\n"                                                                   // 16
        + "      group_by: [tier]\n"
        + "      measures: [\"sum(amount)\"]\n"                                                // 18
        + "      output_mode: append\n"
        + "    sink: {table: gold/g, merge: {keys: [tier]}}\n"))                               // 20
        .containsExactly(
            "pipelines[1].source.path: `path` is not allowed in the source of a silver pipeline (line 9)",
            "pipelines[1].joins: `joins` is not allowed in a silver pipeline (line 10)",
            "pipelines[1].sink.merge: required in a silver pipeline (line 11)",
            "pipelines[2].dedup: `dedup` is not allowed in a gold pipeline (line 15)",
            "pipelines[2].aggregate.watermark: required for output_mode: append (line 16)",
            "pipelines[2].aggregate.window: required for output_mode: append (line 16)",
            "pipelines[2].aggregate.measures[0]: `sum(amount)` is not a measure: write <function>(<expression>)"
                + " AS <name>, with count, sum, avg, min or max (line 18)",
            "pipelines[2].sink.merge: `merge` is not allowed in a gold pipeline (line 20)");
  }

  @Test
  void environmentVariablesThatAreNotSetAreNamedWithThePath() {
    ConfigException e = failure("warehouse: ${env:SLUICE_WAREHOUSE}\n"
        + "storage: {access_key_id: \"${env:KEY_ID}\", secret_access_key: \"${env:SECRET}\"}\n"
        + "pipelines:\n"
        + "  - name: b\n"
        + "    layer: bronze\n"
        + "    source: {format: json, path: \"${env:ORDERS_INPUT}/x\", options: {a: \"${HOME}\"}}\n"
        + "    sink: {table: \"${env:T:-bronze/b\"}\n", Map.of("KEY_ID", "id"));
    assertThat(e.problems()).extracting(ConfigProblem::toString).containsExactly(
        "warehouse: environment variable SLUICE_WAREHOUSE is not set (line 1)",
        "storage.secret_access_key: environment variable SECRET is not set (line 2)",
        "pipelines[0].source.path: environment variable ORDERS_INPUT is not set (line 6)",
        "pipelines[0].source.options.a: cannot interpolate `${HOME}`: only ${env:NAME} and ${env:NAME:-default}"
            + " are supported (line 6)",
        "pipelines[0].sink.table: `${` is not closed in `${env:T:-bronze/b` (line 7)");
    assertThat(e.problems().get(0).hint())
        .isEqualTo("set SLUICE_WAREHOUSE, or give a default: ${env:SLUICE_WAREHOUSE:-value}");
  }

  @Test
  void referencesNamesAndCyclesAreChecked() {
    assertThat(problems("warehouse: file:///w\npipelines:\n"
        + "  - {name: a, layer: bronze, source: {format: csv, path: in}, sink: {table: t/a}, after: [c]}\n"   // 3
        + "  - {name: b, layer: bronze, source: {format: csv, path: in}, sink: {table: t/a}, after: [a]}\n"   // 4
        + "  - {name: c, layer: bronze, source: {format: csv, path: in}, sink: {table: t/c}, after: [b]}\n"   // 5
        + "  - {name: c, layer: bronze, source: {format: csv, path: in}, sink: {table: t/d}, after: [d]}\n"   // 6
        + "  - name: s\n"                                                                                    // 7
        + "    layer: silver\n"
        + "    source: {pipeline: s, table: x/y}\n"                                                          // 9
        + "    sink: {table: /abs, merge: {keys: [k], scd: 3}}\n"                                            // 10
        + "  - name: g\n"                                                                                    // 11
        + "    layer: gold\n"
        + "    source: {pipeline: g2}\n"                                                                     // 13
        + "    joins: [{pipeline: a, on: [k]}, {on: []}]\n"                                                  // 14
        + "    aggregate: {group_by: [k], measures: [\"count(*) AS n\"]}\n"
        + "    sink: {table: t/g}\n"
        + "  - name: g2\n"                                                                                   // 17
        + "    layer: gold\n"
        + "    source: {pipeline: g}\n"                                                                      // 19
        + "    aggregate: {window: {column: ts, size: 1 minute, slide: 2 minutes}, measures: [\"max(x) as m\"]}\n"
        + "    sink: {table: t/g2}\n"))
        .containsExactly(
            "pipelines[0].after: pipelines depend on each other in a cycle: a -> c -> b -> a (line 3)",
            "pipelines[1].sink.table: table `t/a` is already written by pipeline `a` (pipelines[0]) (line 4)",
            "pipelines[3].name: duplicate pipeline name `c` (also pipelines[2]) (line 6)",
            "pipelines[3].after[0]: no pipeline is named `d` (line 6)",
            "pipelines[4].source.pipeline: pipeline `s` refers to itself (line 9)",
            "pipelines[4].source.table: give either `pipeline` or `table`, not both (line 9)",
            "pipelines[4].sink.table: `/abs` must be a relative path without a leading or trailing / (e.g."
                + " silver/orders) (line 10)",
            "pipelines[4].sink.merge.scd: `3` is not one of: 1, 2 (line 10)",
            "pipelines[5].source.pipeline: a gold pipeline reads a silver pipeline, but `g2` is gold (line 13)",
            "pipelines[5].source.pipeline: pipelines depend on each other in a cycle: g -> g2 -> g (line 13)",
            "pipelines[5].joins[1].pipeline: required: `pipeline` (a pipeline whose table to join) or `table`"
                + " (line 14)",
            "pipelines[5].joins[1].on: must not be an empty list (line 14)",
            "pipelines[6].source.pipeline: a gold pipeline reads a silver pipeline, but `g` is gold (line 19)",
            "pipelines[6].aggregate.window.slide: must be longer than zero and at most the size (1 minute)"
                + " (line 20)");
  }

  @Test
  void yamlSyntaxErrorsDuplicateKeysAndEmptyFilesHaveALine() {
    assertThat(problems("warehouse: file:///w\npipelines:\n  - name: [a\n"))
        .singleElement().asString().startsWith("not valid YAML: ").contains("expected ',' or ']'").endsWith("(line 3)");
    assertThat(problems("warehouse: file:///w\nwarehouse: file:///v\npipelines: []\n"))
        .containsExactly("warehouse: duplicate key `warehouse` (first at line 1) (line 2)",
            "pipelines: must hold at least one pipeline (line 3)");
    assertThat(problems("# nothing\n")).containsExactly("the file is empty (line 1)");
    assertThat(problems("- just\n- a list\n")).containsExactly(
        "expected a mapping with `warehouse:` and `pipelines:`, got a list (line 1)");
  }

  @Test
  void triggersSchedulesAndDefaultsAreChecked() {
    ConfigException e = failure("warehouse: file:///w\n"
        + "defaults: {trigger: {processing_time: soon}, max_files_per_trigger: 0}\n"                  // 2
        + "pipelines:\n"
        + "  - name: b\n"
        + "    layer: bronze\n"
        + "    source: {format: json, path: in, schema: [{name: a, type: int}, {name: a, type: string}]}\n" // 6
        + "    sink: {table: bronze/b}\n"
        + "    trigger: \"processing_time: 30 seconds\"\n"                                            // 8
        + "    schedule: {cron: \"*/5 * * * *\", every: 5 minutes}\n", Map.of());                    // 9
    assertThat(e.problems()).extracting(ConfigProblem::toString).containsExactly(
        "defaults.trigger.processing_time: `soon` is not an interval (line 2)",
        "defaults.max_files_per_trigger: must be at least 1, got 0 (line 2)",
        "pipelines[0].source.schema[0].type: `int` is not a Delta type; did you mean `integer`? (line 6)",
        "pipelines[0].source.schema[1].name: duplicate column `a` (line 6)",
        "pipelines[0].trigger: `processing_time: 30 seconds` is not a trigger: use available_now, once or"
            + " {processing_time: <interval>} (line 8)",
        "pipelines[0].schedule.every: give either `cron` or `every`, not both (line 9)");
    assertThat(e.problems().get(0).hint()).startsWith("write a number and a unit, e.g. `500 ms`");
    assertThat(e.problems().get(4).hint())
        .isEqualTo("write the interval as a mapping: trigger: {processing_time: 30 seconds}");
  }

  @Test
  void aTabIsReportedAtItsOwnLine() {
    assertThat(problems("warehouse: file:///w\n"
        + "pipelines:\n"
        + "  - name: b\n"
        + "    layer: bronze\n"
        + "\tsource: {format: json, path: in}\n"))                                       // 5
        .singleElement().asString().contains("Do not use \\t(TAB) for indentation").endsWith("(line 5)");
  }

  @Test
  void aCycleThroughTwoEdgesBetweenTheSamePipelinesIsReportedOnce() {
    assertThat(problems("warehouse: file:///w\npipelines:\n"
        + "  - {name: b, layer: bronze, source: {format: csv, path: in}, sink: {table: t/b}, after: [s]}\n"  // 3
        + "  - {name: s, layer: silver, source: {pipeline: b}, sink: {table: t/s, merge: {keys: [k]}},"
        + " after: [b]}\n"))
        .containsExactly("pipelines[0].after: pipelines depend on each other in a cycle: b -> s -> b (line 3)");
  }

  @Test
  void aSinkTableMayNotBeAnotherPipelinesSideTableNorLieInsideAnotherTable() {
    ConfigException e = failure("warehouse: file:///w\npipelines:\n"
        + BRONZE                                                                                               // 3-6
        + "  - {name: s, layer: silver, source: {pipeline: b}, sink: {table: silver/s, merge: {keys: [k]}}}\n" // 7
        + "  - name: g\n"                                                                                    // 8
        + "    layer: gold\n"
        + "    source: {pipeline: s}\n"
        + "    aggregate: {group_by: [k], measures: [\"count(*) AS n\"]}\n"
        + "    sink: {table: silver/s_quarantine}\n"                                                         // 12
        + "  - {name: n, layer: bronze, source: {format: csv, path: in}, sink: {table: bronze/b/nested}}\n"  // 13
        + "  - {name: c, layer: bronze, source: {format: csv, path: in}, sink: {table: silver/s/_checkpoints/x}}\n"
        + "  - {name: l, layer: bronze, source: {format: csv, path: in}, sink: {table: silver/s_quarantine/x}}\n",
        Map.of());
    assertThat(e.problems()).extracting(ConfigProblem::toString).containsExactly(
        "pipelines[2].sink.table: table `silver/s_quarantine` is where pipeline `s` (pipelines[1]) writes its"
            + " quarantined rows (line 12)",
        "pipelines[3].sink.table: table `bronze/b/nested` is inside table `bronze/b`, written by pipeline `b`"
            + " (pipelines[0]) (line 13)",
        "pipelines[4].sink.table: table `silver/s/_checkpoints/x` is inside the checkpoint folder of table"
            + " `silver/s`, written by pipeline `s` (pipelines[1]) (line 14)",
        "pipelines[5].sink.table: table `silver/s_quarantine/x` is inside table `silver/s_quarantine`, written by"
            + " pipeline `s` (pipelines[1]) (line 15)");
    assertThat(e.problems().get(0).hint()).startsWith("give every table its own folder");
  }

  @Test
  void credentialsInUrisAreRefusedWithoutEchoingThem() {
    ConfigException e = failure("warehouse: s3://AKIAEXAMPLE:wJalrXUtn/FEMI@bucket/wh\n"
        + "pipelines:\n"
        + "  - name: b\n"
        + "    layer: bronze\n"
        + "    source: {format: json, path: \"s3://AKIAEXAMPLE:wJalrXUtnFEMI@landing/in\"}\n"
        + "    sink: {table: bronze/b}\n"
        + "  - name: s\n"
        + "    layer: silver\n"
        + "    source: {table: \"s3://AKIAEXAMPLE@other/bronze/b\"}\n"
        + "    sink: {table: silver/s, merge: {keys: [k]}}\n", Map.of());
    assertThat(e.problems()).extracting(ConfigProblem::toString).containsExactly(
        "warehouse: the warehouse URI holds credentials (user information before `@`); they are refused and not"
            + " shown here, because URIs are printed in logs, progress and listings (line 1)",
        "pipelines[0].source.path: the path URI holds credentials (user information before `@`); they are refused"
            + " and not shown here, because URIs are printed in logs, progress and listings (line 5)",
        "pipelines[1].source.table: the table URI holds credentials (user information before `@`); they are"
            + " refused and not shown here, because URIs are printed in logs, progress and listings (line 9)");
    assertThat(e.problems().get(0).hint()).contains("access_key_id: ${env:AWS_ACCESS_KEY_ID}");
    assertThat(e.getMessage()).doesNotContain("AKIAEXAMPLE").doesNotContain("wJalrXUtn");
  }

  @Test
  void aRelativeWarehouseIsRefusedWithTheReason() {
    assertThat(problems("warehouse: data/wh\npipelines:\n" + BRONZE)).containsExactly(
        "warehouse: `data/wh` is a relative path; the warehouse must be absolute (file:///absolute/path,"
            + " /absolute/path or s3://bucket/prefix), so that every run, whatever its working directory, finds the"
            + " same tables (line 1)");
  }

  @Test
  void sinkPropertiesAreReadForSilverAndRefusedElsewhereOrWhenNotABoolean() {
    String silver = "  - name: s\n"
        + "    layer: silver\n"
        + "    source: {pipeline: b}\n"
        + "    sink: {table: silver/s, merge: {keys: [id]}, properties: {delta.enableDeletionVectors: %s}}\n";
    SluiceConfig ok = ConfigLoader.parse("warehouse: /wh\npipelines:\n" + BRONZE + String.format(silver, "\"true\""), "test.yaml",
        Map.of());
    assertThat(ok.pipelines().get(1).sink().properties()).containsEntry("delta.enableDeletionVectors", "true");
    assertThat(problems("warehouse: /wh\npipelines:\n" + BRONZE + String.format(silver, "yes please"))).singleElement().asString()
        .contains("pipelines[1].sink.properties: delta.enableDeletionVectors must be true or false, got 'yes please'");
    String bronze = BRONZE.replace("sink: {table: bronze/b}", "sink: {table: bronze/b, properties: {a: b}}");
    assertThat(problems("warehouse: /wh\npipelines:\n" + bronze)).singleElement().asString()
        .contains("pipelines[0].sink.properties: table properties are applied to silver tables only");
  }
}
