package dev.sluice.ingestion.internal.plan.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.OutputMode;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random events in random batches under a moving watermark: after a last batch whose watermark passes
 * every window, the union of everything append mode emitted must equal a plain GROUP BY over the
 * (row, window) pairs that were not late when their batch ran.
 */
class AggregationOracleTest {
  private static final StructType INPUT = StructType.of(StructField.of("ts", PrimitiveType.TIMESTAMP),
      StructField.of("user", PrimitiveType.STRING), StructField.of("amount", PrimitiveType.LONG));
  private static final long SEC_MS = 1000L;

  @ParameterizedTest
  @CsvSource({"1, 60, 60", "2, 60, 20", "3, 45, 45", "4, 100, 30", "5, 30, 7"})
  void appendOutputsEqualABatchGroupByOverTheRowsThatWereNotLate(long seed, long sizeSeconds, long slideSeconds) {
    Random random = new Random(seed);
    WindowSpec window = WindowSpec.sliding("ts", Duration.ofSeconds(sizeSeconds), Duration.ofSeconds(slideSeconds));
    long delayMs = 20 * SEC_MS;
    AggregationHarness h = AggregationHarness.of(INPUT, OutputMode.APPEND, window,
        new WatermarkSpec("ts", Duration.ofMillis(delayMs)), List.of("user"), AggregateSpec.count(),
        AggregateSpec.sum("amount"), AggregateSpec.min("amount"), AggregateSpec.max("amount"),
        AggregateSpec.avg("amount"), AggregateSpec.count("amount"));
    Map<Row, List<Long>> expected = new HashMap<>();
    Set<Row> expectedLate = new HashSet<>();
    List<Row> emitted = new ArrayList<>();
    long maxEventMs = 0;
    long watermarkMs = 0;
    long clockMs = 0;
    for (int batch = 0; batch < 40; batch++) {
      List<Row> rows = new ArrayList<>();
      int n = random.nextInt(30);
      for (int i = 0; i < n; i++) {
        clockMs += random.nextInt(3 * (int) SEC_MS);
        // Mostly recent events, some a little late, a few far behind the watermark.
        long lateness = random.nextInt(10) == 0 ? random.nextInt(300) * SEC_MS : random.nextInt(15) * SEC_MS;
        long ts = clockMs - lateness;
        String user = random.nextInt(8) == 0 ? null : "u" + random.nextInt(4);
        Long amount = random.nextInt(6) == 0 ? null : (long) random.nextInt(1000) - 200;
        Row row = Row.of(Instant.ofEpochMilli(ts).plusNanos(random.nextInt(1000) * 1000L), user, amount);
        rows.add(row);
        boolean kept = false;
        for (long start : windowStarts(row, sizeSeconds, slideSeconds)) {
          long endMicros = start + sizeSeconds * 1_000_000L;
          if (endMicros > watermarkMs * 1000) {
            kept = true;
            expected.computeIfAbsent(Row.of(GroupKeys.window(start, endMicros), user), k -> new ArrayList<>())
                .add(amount);
          }
        }
        if (!kept) {
          expectedLate.add(row);
        }
      }
      emitted.addAll(h.run(watermarkMs, rows));
      for (Row r : rows) {
        maxEventMs = Math.max(maxEventMs, ((Instant) r.get(0)).toEpochMilli());
      }
      watermarkMs = Math.max(watermarkMs, maxEventMs - delayMs);
    }
    emitted.addAll(h.run(Long.MAX_VALUE / 2000));

    assertThat(h.stateSize()).isZero();
    assertThat(new HashSet<>(h.late)).isEqualTo(expectedLate);
    assertThat(expectedLate).as("the run must exercise late rows").isNotEmpty();
    List<Row> expectedRows = new ArrayList<>();
    expected.forEach((key, amounts) -> expectedRows.add(groupBy(key, amounts)));
    assertThat(emitted).containsExactlyInAnyOrderElementsOf(expectedRows);
  }

  /** Window starts by brute force, independent of {@link TimeWindows}. */
  private static List<Long> windowStarts(Row row, long sizeSeconds, long slideSeconds) {
    long t = TimeWindows.micros((Instant) row.get(0));
    long slide = slideSeconds * 1_000_000L;
    long size = sizeSeconds * 1_000_000L;
    List<Long> starts = new ArrayList<>();
    for (long s = Math.floorDiv(t - size, slide) * slide; s <= t; s += slide) {
      if (s <= t && t < s + size) {
        starts.add(s);
      }
    }
    return starts;
  }

  private static Row groupBy(Row key, List<Long> amounts) {
    List<Long> values = amounts.stream().filter(a -> a != null).toList();
    Long sum = values.isEmpty() ? null : values.stream().mapToLong(Long::longValue).sum();
    Long min = values.stream().min(Long::compare).orElse(null);
    Long max = values.stream().max(Long::compare).orElse(null);
    Double avg = values.isEmpty() ? null : (double) sum / values.size();
    return Row.of(key.get(0), key.get(1), (long) amounts.size(), sum, min, max, avg, (long) values.size());
  }
}
