package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code join_stream}: a silver pipeline's stream-stream join with another pipeline's table. */
class StreamJoinConfigTest {
  private static String yaml(String join) {
    return "warehouse: file:///wh\n"
        + "pipelines:\n"
        + "  - name: imps\n"
        + "    layer: bronze\n"
        + "    source: {format: json, path: imps}\n"
        + "    sink: {table: bronze/imps}\n"
        + "  - name: clicks\n"
        + "    layer: bronze\n"
        + "    source: {format: json, path: clicks}\n"
        + "    sink: {table: bronze/clicks}\n"
        + "  - name: ad_clicks\n"
        + "    layer: silver\n"
        + "    source: {pipeline: imps}\n"
        + "    join_stream: " + join + "\n"                          // line 14
        + "    sink: {table: silver/ad_clicks, merge: {keys: [imp_id]}}\n";
  }

  private static List<String> problems(String join) {
    ConfigException e = catchThrowableOfType(ConfigException.class,
        () -> ConfigLoader.parse(yaml(join), "test.yaml", Map.of()));
    assertThat(e).as("expected the config to be refused").isNotNull();
    return e.problems().stream().map(ConfigProblem::toString).toList();
  }

  private static final String WATERMARKS = "left_watermark: {column: imp_ts, delay: 10 minutes},"
      + " right_watermark: {column: click_ts, delay: 5 minutes}";

  @Test
  void readsTheRightSideKeysBoundAndWatermarks() {
    StreamJoinConfig j = ConfigLoader.parse(yaml("{pipeline: clicks, keys: [ad_id], type: left_outer, within: 10"
        + " minutes, " + WATERMARKS + "}"), "test.yaml", Map.of()).pipeline("ad_clicks").orElseThrow().joinStream()
        .orElseThrow();
    assertThat(j.pipeline()).contains("clicks");
    assertThat(j.table()).contains("bronze/clicks");
    assertThat(j.keys()).containsExactly("ad_id");
    assertThat(j.type()).isEqualTo(StreamJoinConfig.Type.LEFT_OUTER);
    assertThat(j.within().orElseThrow().duration()).isEqualTo(Duration.ofMinutes(10));
    assertThat(j.leftWatermark().orElseThrow().column()).isEqualTo("imp_ts");
    assertThat(j.rightWatermark().orElseThrow().delay().duration()).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void anInnerJoinNeedsNoBound() {
    StreamJoinConfig j = ConfigLoader.parse(yaml("{table: bronze/clicks, keys: [ad_id]}"), "test.yaml", Map.of())
        .pipeline("ad_clicks").orElseThrow().joinStream().orElseThrow();
    assertThat(j.type()).isEqualTo(StreamJoinConfig.Type.INNER);
    assertThat(j.within()).isEmpty();
    assertThat(j.pipeline()).isEmpty();
  }

  @Test
  void anOuterJoinWithoutWatermarksOrBoundIsRefusedNamingEachKey() {
    assertThat(problems("{pipeline: clicks, keys: [ad_id], type: full_outer}")).containsExactly(
        "pipelines[2].join_stream.left_watermark: required for type: full_outer (a row is emitted without a match,"
            + " or evicted, once the watermarks pass its time bound) (line 14)",
        "pipelines[2].join_stream.right_watermark: required for type: full_outer (a row is emitted without a match,"
            + " or evicted, once the watermarks pass its time bound) (line 14)",
        "pipelines[2].join_stream.within: required for type: full_outer: a time bound between the two sides"
            + " (line 14)");
    assertThat(problems("{pipeline: clicks, keys: [ad_id], type: left_outer, within: 1 minute,"
        + " left_watermark: {column: imp_ts, delay: 1 minute}}")).containsExactly(
        "pipelines[2].join_stream.right_watermark: required with `within`: its column is that side's event time"
            + " (line 14)");
  }

  @Test
  void otherMistakesNameTheirKey() {
    assertThat(problems("{pipeline: clickz, keys: [ad_id]}")).containsExactly(
        "pipelines[2].join_stream.pipeline: no pipeline is named `clickz` (line 14)");
    assertThat(problems("{pipeline: clicks}")).containsExactly(
        "pipelines[2].join_stream.keys: required (line 14)");
    assertThat(problems("{pipeline: clicks, keys: [ad_id], type: outer}")).containsExactly(
        "pipelines[2].join_stream.type: `outer` is not one of: inner, left_outer, right_outer, full_outer, left_semi"
            + " (line 14)");
    assertThat(problems("{pipeline: clicks, keys: [ad_id], within: 1 minute, time_condition: \"r.t > l.t\", "
        + WATERMARKS + "}")).containsExactly(
        "pipelines[2].join_stream.time_condition: give either `within` or `time_condition`, not both (line 14)");
  }
}
