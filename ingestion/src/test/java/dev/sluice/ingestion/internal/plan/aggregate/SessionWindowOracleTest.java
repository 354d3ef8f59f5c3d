package dev.sluice.ingestion.internal.plan.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.internal.plan.Transform.BatchInfo;
import dev.sluice.ingestion.state.MapStateStore;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random events (disorder, late rows, re-sends) in random batches under a moving watermark: after a last
 * batch whose watermark passes every session, the union of everything append mode emitted must equal a plain
 * sessionization (sort by time, merge windows {@code [t, t + gap)} that overlap or touch) of the rows whose event
 * time was after the watermark of their batch; state is then empty.
 */
class SessionWindowOracleTest {
  private static final StructType INPUT = StructType.of(StructField.of("ts", PrimitiveType.TIMESTAMP),
      StructField.of("user", PrimitiveType.STRING), StructField.of("amount", PrimitiveType.LONG));
  private static final long SEC = 1_000_000L;
  private static final String DYNAMIC_GAP = "CASE WHEN user = 'u0' THEN '4 seconds' ELSE '15 seconds' END";

  private static final class Harness {
    final StatefulTransform step;
    final List<Row> late = new ArrayList<>();
    MapStateStore store;
    long batchId;
    long maxStateKeys;

    Harness(OutputMode mode, String gap) {
      step = new SessionAggregationSpec(List.of("user"), SessionWindowSpec.of("ts", gap),
          List.of(AggregateSpec.count(), AggregateSpec.sum("amount"), AggregateSpec.min("amount"),
              AggregateSpec.max("amount")), mode, new WatermarkSpec("ts", Duration.ofSeconds(20))).bind(INPUT);
    }

    List<Row> run(long watermarkMs, List<Row> rows) {
      store = store == null ? new MapStateStore() : store.next();
      MapStateStore current = store;
      BatchInfo info = new BatchInfo(batchId++, Instant.EPOCH, watermarkMs, s -> current,
          (op, schema, row, wm) -> late.add(row));
      List<Row> out = step.apply(new Batch(INPUT, rows), info).rows();
      maxStateKeys = Math.max(maxStateKeys, current.size());
      return out;
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {"1|'10 seconds'", "2|'3 seconds'", "3|" + DYNAMIC_GAP, "4|'30 seconds'",
      "5|" + DYNAMIC_GAP})
  void appendEmitsEachSessionOnceAndEqualsABatchSessionization(long seed, String gap) {
    Random random = new Random(seed);
    Harness h = new Harness(OutputMode.APPEND, gap);
    long delayMs = 20_000;
    Map<String, List<long[]>> kept = new LinkedHashMap<>();
    Set<Row> expectedLate = new HashSet<>();
    List<Row> emitted = new ArrayList<>();
    long maxEventMs = 0;
    long watermarkMs = 0;
    long clockMs = 1_000_000;
    List<Row> sent = new ArrayList<>();
    for (int batch = 0; batch < 60; batch++) {
      List<Row> rows = new ArrayList<>();
      int n = random.nextInt(25);
      for (int i = 0; i < n; i++) {
        Row row;
        if (!sent.isEmpty() && random.nextInt(12) == 0) {
          row = sent.get(random.nextInt(sent.size())); // a re-send: the same event again
        } else {
          clockMs += random.nextInt(2500);
          long lateness = random.nextInt(10) == 0 ? random.nextInt(120) * 1000L : random.nextInt(12) * 1000L;
          String user = random.nextInt(10) == 0 ? null : "u" + random.nextInt(5);
          Long amount = random.nextInt(7) == 0 ? null : (long) random.nextInt(100) - 20;
          row = Row.of(Instant.ofEpochMilli(clockMs - lateness).plusNanos(random.nextInt(1000) * 1000L), user, amount);
          sent.add(row);
        }
        rows.add(row);
        long t = TimeWindows.micros((Instant) row.get(0));
        if (t <= watermarkMs * 1000) {
          expectedLate.add(row);
        } else {
          kept.computeIfAbsent((String) row.get(1), k -> new ArrayList<>())
              .add(new long[] {t, t + gapOf((String) row.get(1), gap), amount(row) == null ? Long.MIN_VALUE : amount(row)});
        }
      }
      emitted.addAll(h.run(watermarkMs, rows));
      for (Row r : rows) {
        maxEventMs = Math.max(maxEventMs, ((Instant) r.get(0)).toEpochMilli());
      }
      watermarkMs = Math.max(watermarkMs, maxEventMs - delayMs);
    }
    emitted.addAll(h.run(Long.MAX_VALUE / 2000, List.of()));

    assertThat(h.store.size()).isZero();
    assertThat(new HashSet<>(h.late)).isEqualTo(expectedLate);
    assertThat(expectedLate).as("the run must exercise late rows").isNotEmpty();
    List<Row> expected = sessionize(kept);
    assertThat(expected.size()).as("sessions merge: fewer sessions than rows").isLessThan(kept.values().stream().mapToInt(List::size).sum());
    assertThat(emitted).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(h.maxStateKeys).as("state holds only open sessions' keys").isLessThanOrEqualTo(6);
  }

  @Test
  void completeModeEmitsEverySessionEachBatchAndKeepsState() {
    Harness h = new Harness(OutputMode.COMPLETE, "'10 seconds'");
    Instant t = Instant.parse("2024-01-01T00:00:00Z");
    assertThat(h.run(0, List.of(Row.of(t, "a", 1L), Row.of(t.plusSeconds(30), "a", 2L)))).hasSize(2);
    // a row between them bridges both sessions: they merge into one
    List<Row> out = h.run(0, List.of(Row.of(t.plusSeconds(10), "a", 3L), Row.of(t.plusSeconds(20), "a", 4L)));
    assertThat(out).containsExactly(Row.of(Row.of(t, t.plusSeconds(40)), "a", 4L, 10L, 1L, 4L));
  }

  @Test
  void updateModeAndAppendWithoutWatermarkAreRefusedWithTheFix() {
    assertThatThrownBy(() -> new Harness(OutputMode.UPDATE, "'10 seconds'"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sessionWindowStateStoreSaveExec")
        .hasMessageContaining("output mode update is not supported for session windows")
        .hasMessageContaining("outputMode(\"append\")");
    assertThatThrownBy(() -> new SessionAggregationSpec(List.of("user"), SessionWindowSpec.of("ts", "'1 minute'"),
        List.of(AggregateSpec.count()), OutputMode.APPEND, null).bind(INPUT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs a watermark on the session column 'ts'");
    assertThatThrownBy(() -> SessionWindowSpec.of("ts", "'soon'"))
        .hasMessageContaining("Cannot read the session gap 'soon'");
  }

  private static long gapOf(String user, String gap) {
    if (gap.equals(DYNAMIC_GAP)) {
      return "u0".equals(user) ? 4 * SEC : 15 * SEC;
    }
    return Long.parseLong(gap.replaceAll("\\D", "")) * SEC;
  }

  private static Long amount(Row row) {
    return (Long) row.get(2);
  }

  /** Sessions by brute force: per user, sort by start and sweep. */
  private static List<Row> sessionize(Map<String, List<long[]>> byUser) {
    List<Row> out = new ArrayList<>();
    byUser.forEach((user, events) -> {
      events.sort(Comparator.comparingLong(e -> e[0]));
      List<long[]> group = new ArrayList<>();
      long end = Long.MIN_VALUE;
      for (long[] e : events) {
        if (!group.isEmpty() && e[0] > end) {
          out.add(result(user, group, end));
          group = new ArrayList<>();
        }
        end = group.isEmpty() ? e[1] : Math.max(end, e[1]);
        group.add(e);
      }
      if (!group.isEmpty()) {
        out.add(result(user, group, end));
      }
    });
    return out;
  }

  private static Row result(String user, List<long[]> group, long end) {
    List<Long> amounts = group.stream().filter(e -> e[2] != Long.MIN_VALUE).map(e -> e[2]).toList();
    return Row.of(GroupKeys.window(group.get(0)[0], end), user, (long) group.size(),
        amounts.isEmpty() ? null : amounts.stream().mapToLong(Long::longValue).sum(),
        amounts.stream().min(Long::compare).orElse(null), amounts.stream().max(Long::compare).orElse(null));
  }
}
