package dev.sluice.ingestion.internal.plan.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TimeWindowsTest {
  private static final long MIN = 60_000_000L;

  private static long[] starts(WindowSpec spec, long t) {
    TimeWindows w = new TimeWindows(spec);
    long[] out = new long[w.maxOverlapping()];
    long[] found = Arrays.copyOf(out, w.starts(t, out));
    Arrays.sort(found);
    return found;
  }

  private static WindowSpec tumbling(long minutes) {
    return WindowSpec.tumbling("ts", Duration.ofMinutes(minutes));
  }

  @Test
  void tumblingWindowsAreAlignedToTheEpochAndHalfOpen() {
    assertThat(starts(tumbling(10), 0)).containsExactly(0);
    assertThat(starts(tumbling(10), 10 * MIN - 1)).containsExactly(0);
    assertThat(starts(tumbling(10), 10 * MIN)).containsExactly(10 * MIN);
    assertThat(starts(tumbling(10), 23 * MIN + 7)).containsExactly(20 * MIN);
  }

  @Test
  void preEpochTimesFloorToTheEarlierWindow() {
    assertThat(starts(tumbling(10), -1)).containsExactly(-10 * MIN);
    assertThat(starts(tumbling(10), -10 * MIN)).containsExactly(-10 * MIN);
    assertThat(starts(tumbling(10), -10 * MIN - 1)).containsExactly(-20 * MIN);
  }

  @Test
  void slidingWindowsContainEveryWindowHoldingTheTime() {
    WindowSpec spec = WindowSpec.sliding("ts", Duration.ofMinutes(10), Duration.ofMinutes(5));
    assertThat(starts(spec, 7 * MIN)).containsExactly(0, 5 * MIN);
    assertThat(starts(spec, 5 * MIN)).containsExactly(0, 5 * MIN);
    assertThat(starts(spec, 5 * MIN - 1)).containsExactly(-5 * MIN, 0);
    assertThat(starts(spec, -1)).containsExactly(-10 * MIN, -5 * MIN);
  }

  @Test
  void slideThatDoesNotDivideTheSizeGivesOneFewerWindowForSomeTimes() {
    WindowSpec spec = WindowSpec.sliding("ts", Duration.ofMinutes(10), Duration.ofMinutes(3));
    // starts are multiples of 3 minutes; a window holds t when start <= t < start + 10.
    assertThat(starts(spec, 9 * MIN)).containsExactly(0, 3 * MIN, 6 * MIN, 9 * MIN);
    assertThat(starts(spec, 10 * MIN)).containsExactly(3 * MIN, 6 * MIN, 9 * MIN);
    assertThat(starts(spec, 11 * MIN)).containsExactly(3 * MIN, 6 * MIN, 9 * MIN);
    assertThat(starts(spec, 12 * MIN)).containsExactly(3 * MIN, 6 * MIN, 9 * MIN, 12 * MIN);
  }

  @Test
  void everyWindowFoundHoldsTheTimeAndNoneIsMissed() {
    WindowSpec spec = new WindowSpec("ts", Duration.ofSeconds(7), Duration.ofSeconds(2), Duration.ofSeconds(1));
    long sec = 1_000_000L;
    for (long t = -20 * sec; t <= 20 * sec; t += 250_000L) {
      long[] found = starts(spec, t);
      long expected = 0;
      for (long s = -40 * sec + sec; s <= t; s += 2 * sec) {
        if (t < s + 7 * sec) {
          expected++;
          assertThat(found).as("t=%d", t).contains(s);
        }
      }
      assertThat(found).as("t=%d", t).hasSize((int) expected);
    }
  }

  @Test
  void startTimeShiftsTheAlignment() {
    WindowSpec spec = new WindowSpec("ts", Duration.ofMinutes(10), Duration.ofMinutes(10), Duration.ofMinutes(3));
    assertThat(starts(spec, 2 * MIN)).containsExactly(-7 * MIN);
    assertThat(starts(spec, 3 * MIN)).containsExactly(3 * MIN);
  }

  @Test
  void microsecondConversionRoundTripsBeforeAndAfterTheEpoch() {
    for (Instant t : new Instant[] {Instant.parse("1969-12-31T23:59:59.999999Z"), Instant.EPOCH,
        Instant.parse("2026-11-30T10:15:30.123456Z")}) {
      assertThat(TimeWindows.instant(TimeWindows.micros(t))).isEqualTo(t);
    }
    assertThat(TimeWindows.micros(Instant.parse("1969-12-31T23:59:59.999999Z"))).isEqualTo(-1);
  }

  @Test
  void invalidWindowsAreRefusedWithTheFix() {
    assertThatThrownBy(() -> WindowSpec.sliding("ts", Duration.ofMinutes(5), Duration.ofMinutes(10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the slide (PT10M) must be at most the window size (PT5M)");
    assertThatThrownBy(() -> WindowSpec.tumbling("ts", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be positive durations");
    assertThatThrownBy(() -> new WindowSpec("ts", Duration.ofMinutes(10), Duration.ofMinutes(5), Duration.ofMinutes(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the start time must be shorter than the slide");
    assertThatThrownBy(() -> WindowSpec.tumbling("ts", Duration.ofNanos(1500)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("finer than a microsecond");
  }

  @Test
  void sqlNamesTheWindowAsSparkWritesIt() {
    assertThat(tumbling(10).sql()).isEqualTo("window(ts, 10 minutes)");
    assertThat(WindowSpec.sliding("ts", Duration.ofHours(1), Duration.ofSeconds(90)).sql())
        .isEqualTo("window(ts, 1 hours, 90 seconds)");
  }
}
