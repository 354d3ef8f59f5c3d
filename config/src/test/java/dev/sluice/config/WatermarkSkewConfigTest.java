package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code watermark.max_future_skew}: how far ahead of the batch time an event time may be (default 1 day). */
class WatermarkSkewConfigTest {
  private static String yaml(String watermark) {
    return "warehouse: file:///wh\n"
        + "pipelines:\n"
        + "  - name: b\n"
        + "    layer: bronze\n"
        + "    source: {format: json, path: in}\n"
        + "    sink: {table: bronze/b}\n"
        + "  - name: s\n"
        + "    layer: silver\n"
        + "    source: {pipeline: b}\n"
        + "    dedup: {keys: [id], watermark: " + watermark + "}\n"
        + "    sink: {table: silver/s, merge: {keys: [id]}}\n";
  }

  private static WatermarkConfig watermark(String text) {
    SluiceConfig config = ConfigLoader.parse(yaml(text), "test.yaml", Map.of());
    return config.pipeline("s").orElseThrow().dedup().orElseThrow().watermark().orElseThrow();
  }

  @Test
  void defaultsToOneDayAndCanBeSet() {
    assertThat(watermark("{column: ts, delay: 1 hour}").maxFutureSkew())
        .isEqualTo(new Interval("1 day", Duration.ofDays(1)));
    assertThat(watermark("{column: ts, delay: 1 hour, max_future_skew: 2 hours}").maxFutureSkew())
        .isEqualTo(new Interval("2 hours", Duration.ofHours(2)));
  }

  @Test
  void aBadSkewIsAProblemAtItsPath() {
    ConfigException e = catchThrowableOfType(ConfigException.class,
        () -> ConfigLoader.parse(yaml("{column: ts, delay: 1 hour, max_future_skew: soon}"), "test.yaml", Map.of()));
    assertThat(e.problems()).extracting(ConfigProblem::toString)
        .containsExactly("pipelines[1].dedup.watermark.max_future_skew: `soon` is not an interval (line 10)");
  }
}
