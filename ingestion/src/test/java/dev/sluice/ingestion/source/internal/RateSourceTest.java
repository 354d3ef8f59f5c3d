package dev.sluice.ingestion.source.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.table.data.Row;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RateSourceTest {
  @TempDir Path tmp;

  private Source rate(Map<String, String> options, Clock clock) {
    return new RateSourceProvider().create("rate", TestContexts.context(tmp, options, null, null, clock));
  }

  @Test
  void rowsPerBatchGivesTheSameRowsOnEveryRun() {
    Map<String, String> options = Map.of("rowsPerBatch", "3", "startTimestamp", "1000", "advanceMillisPerBatch", "500");
    Source first = rate(options, Clock.systemUTC());
    SourceOffset o1 = first.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    SourceOffset o2 = first.latestOffset(Optional.of(o1), ReadLimit.ALL).orElseThrow();
    assertThat(o1.json()).isEqualTo("{\"value\":3}");
    assertThat(o2.json()).isEqualTo("{\"value\":6}");
    Batch second = first.getBatch(Optional.of(o1), o2);
    assertThat(second.rows()).containsExactly(
        Row.of(Instant.ofEpochMilli(1500), 3L), Row.of(Instant.ofEpochMilli(1500), 4L), Row.of(Instant.ofEpochMilli(1500), 5L));

    Source rerun = rate(options, Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC));
    assertThat(rerun.getBatch(Optional.of(o1), o2)).isEqualTo(second);
    assertThat(rerun.getBatch(Optional.empty(), o1).rows()).extracting(r -> r.get(0))
        .containsOnly(Instant.ofEpochMilli(1000));
  }

  @Test
  void rowsPerSecondFollowsTheClockAndKeepsItsStartAcrossRestarts() {
    MutableClock clock = new MutableClock(10_000);
    Source source = rate(Map.of("rowsPerSecond", "2"), clock);
    assertThat(source.latestOffset(Optional.empty(), ReadLimit.ALL)).isEmpty();
    clock.millis = 12_500;
    SourceOffset end = source.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    assertThat(end.json()).isEqualTo("{\"value\":5}");
    assertThat(source.getBatch(Optional.empty(), end).rows().get(4)).isEqualTo(Row.of(Instant.ofEpochMilli(12_000), 4L));
    assertThat(source.latestOffset(Optional.empty(), new ReadLimit(Long.MAX_VALUE, Long.MAX_VALUE, 2)).orElseThrow().json())
        .isEqualTo("{\"value\":2}");

    clock.millis = 20_000; // a restart later: values keep the timestamps of the first start
    Source restarted = rate(Map.of("rowsPerSecond", "2"), clock);
    assertThat(restarted.getBatch(Optional.empty(), end)).isEqualTo(source.getBatch(Optional.empty(), end));
  }

  @Test
  void availableNowStopsAtTheEndFixedAtStart() {
    Source source = rate(Map.of("rowsPerBatch", "2"), Clock.systemUTC());
    source.prepareForAvailableNow();
    SourceOffset end = source.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    assertThat(source.latestOffset(Optional.of(end), ReadLimit.ALL)).isEmpty();
  }

  @Test
  void refusesBothRateOptions() {
    assertThatThrownBy(() -> rate(Map.of("rowsPerBatch", "2", "rowsPerSecond", "1"), Clock.systemUTC()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rowsPerSecond or rowsPerBatch, not both");
    assertThatThrownBy(() -> rate(Map.of("rowsPerBatch", "0"), Clock.systemUTC()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Option 'rowsPerBatch' of source format 'rate' is '0', but it must be a whole number >= 1");
    assertThatThrownBy(() -> rate(Map.of("rowsPerMinute", "2"), Clock.systemUTC()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Unknown option 'rowsPerMinute' for source format 'rate'")
        .hasMessageContaining("rowsperbatch");
  }

  private static final class MutableClock extends Clock {
    long millis;

    MutableClock(long millis) {
      this.millis = millis;
    }

    @Override
    public long millis() {
      return millis;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }
}
