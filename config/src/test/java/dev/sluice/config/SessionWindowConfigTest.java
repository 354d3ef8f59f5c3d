package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code aggregate.window: {type: session, column, gap | gap_expr}} in a gold pipeline. */
class SessionWindowConfigTest {
  private static String yaml(String aggregate) {
    return "warehouse: file:///wh\n"
        + "pipelines:\n"
        + "  - name: b\n"
        + "    layer: bronze\n"
        + "    source: {format: json, path: in}\n"
        + "    sink: {table: bronze/b}\n"
        + "  - name: s\n"
        + "    layer: silver\n"
        + "    source: {pipeline: b}\n"
        + "    sink: {table: silver/s, merge: {keys: [id]}}\n"
        + "  - name: g\n"
        + "    layer: gold\n"
        + "    source: {pipeline: s}\n"
        + "    aggregate: " + aggregate + "\n"                // line 14
        + "    sink: {table: gold/g}\n";
  }

  private static AggregateConfig aggregate(String text) {
    return ConfigLoader.parse(yaml(text), "test.yaml", Map.of()).pipeline("g").orElseThrow().aggregate()
        .orElseThrow();
  }

  private static List<String> problems(String text) {
    ConfigException e = catchThrowableOfType(ConfigException.class,
        () -> ConfigLoader.parse(yaml(text), "test.yaml", Map.of()));
    assertThat(e).as("expected the config to be refused").isNotNull();
    return e.problems().stream().map(ConfigProblem::toString).toList();
  }

  private static final String WATERMARK = "watermark: {column: ts, delay: 10 minutes}";

  @Test
  void aFixedGapBecomesTheEnginesSessionWindowArgument() {
    AggregateConfig a = aggregate("{group_by: [user], window: {type: session, column: ts, gap: 30 minutes},"
        + " measures: [\"count(*) AS events\"], output_mode: append, " + WATERMARK + "}");
    assertThat(a.window()).isEmpty();
    assertThat(a.sessionWindow()).contains(SessionWindowConfig.of("ts", new Interval("30 minutes",
        Duration.ofMinutes(30))));
    assertThat(a.sessionWindow().orElseThrow().gapArgument()).isEqualTo("'30 minutes'");
    assertThat(a.windowColumn()).contains("ts");
  }

  @Test
  void aGapExpressionIsPassedAsWritten() {
    AggregateConfig a = aggregate("{group_by: [user], window: {type: session, column: ts, gap_expr: \"CASE WHEN"
        + " tier = 'gold' THEN '30 minutes' ELSE '10 minutes' END\"}, measures: [\"count(*) AS events\"],"
        + " output_mode: append, " + WATERMARK + "}");
    assertThat(a.sessionWindow().orElseThrow()).isEqualTo(new SessionWindowConfig("ts", Optional.empty(),
        Optional.of("CASE WHEN tier = 'gold' THEN '30 minutes' ELSE '10 minutes' END")));
    assertThat(a.sessionWindow().orElseThrow().gapArgument()).startsWith("CASE WHEN");
  }

  @Test
  void timeWindowsStillReadAndMayNameTheirType() {
    AggregateConfig a = aggregate("{group_by: [user], window: {type: sliding, column: ts, size: 10 minutes,"
        + " slide: 5 minutes}, measures: [\"count(*) AS events\"]}");
    assertThat(a.sessionWindow()).isEmpty();
    assertThat(a.window().orElseThrow().isTumbling()).isFalse();
  }

  @Test
  void updateModeAndTheDefaultModeAreRefusedNamingTheKeyAndTheFix() {
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(
        yaml("{group_by: [user], window: {type: session, column: ts, gap: 30 minutes}, measures: [\"count(*) AS n\"]}"),
        "test.yaml", Map.of()));
    assertThat(e.problems()).extracting(ConfigProblem::toString).containsExactly(
        "pipelines[2].aggregate.output_mode: a session window is written in append mode only, not update (line 14)");
    assertThat(e.getMessage()).contains("set output_mode: append");
    assertThat(problems("{group_by: [user], window: {type: session, column: ts, gap: 30 minutes},"
        + " measures: [\"count(*) AS n\"], output_mode: complete}")).containsExactly(
        "pipelines[2].aggregate.output_mode: a session window is written in append mode only, not complete"
            + " (line 14)");
  }

  @Test
  void appendNeedsAWatermarkOnTheSessionColumn() {
    assertThat(problems("{group_by: [user], window: {type: session, column: ts, gap: 30 minutes},"
        + " measures: [\"count(*) AS n\"], output_mode: append}")).containsExactly(
        "pipelines[2].aggregate.watermark: required for output_mode: append (line 14)");
    assertThat(problems("{group_by: [user], window: {type: session, column: ts, gap: 30 minutes},"
        + " measures: [\"count(*) AS n\"], output_mode: append, watermark: {column: other, delay: 1 minute}}"))
        .containsExactly("pipelines[2].aggregate.watermark: the watermark is on `other` but the window on `ts`"
            + " (line 14)");
  }

  @Test
  void gapMistakesNameTheKey() {
    String tail = ", measures: [\"count(*) AS n\"], output_mode: append, " + WATERMARK + "}";
    assertThat(problems("{window: {type: session, column: ts}" + tail)).containsExactly(
        "pipelines[2].aggregate.window.gap: required: `gap` or `gap_expr` (line 14)");
    assertThat(problems("{window: {type: session, column: ts, gap: 1 minute, gap_expr: \"'1 minute'\"}" + tail))
        .containsExactly("pipelines[2].aggregate.window.gap: give either `gap` or `gap_expr`, not both (line 14)");
    assertThat(problems("{window: {type: session, column: ts, gap: soon}" + tail)).containsExactly(
        "pipelines[2].aggregate.window.gap: `soon` is not an interval (line 14)");
    assertThat(problems("{window: {type: session, column: ts, gap: 1 minute, size: 1 minute}" + tail))
        .containsExactly("pipelines[2].aggregate.window.size: a session window has no `size` (line 14)");
    assertThat(problems("{window: {type: sesion, column: ts, gap: 1 minute}" + tail)).contains(
        "pipelines[2].aggregate.window.type: `sesion` is not one of: tumbling, sliding, session; did you mean"
            + " `session`? (line 14)");
    assertThat(problems("{window: {column: ts, size: 1 minute, gap: 1 minute}" + tail)).containsExactly(
        "pipelines[2].aggregate.window.gap: `gap` is for session windows (line 14)");
  }
}
