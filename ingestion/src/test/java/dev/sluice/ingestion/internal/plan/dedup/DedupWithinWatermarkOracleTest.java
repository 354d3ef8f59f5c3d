package dev.sluice.ingestion.internal.plan.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.Row;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random events with duplicates, cut into random batches (some empty) under a moving watermark: the rows the
 * streaming step keeps equal a computation over the whole input at once.
 *
 * <p>The semantics the oracle states, for rows in arrival order (batch, then position), batch {@code b}
 * having watermark {@code W(b)} = max(W(b-1), max event time of batches before b - delay) as the runner
 * computes it:
 * <ul>
 *   <li>a row with event time {@code < W(b)} is late (dropped and reported);
 *   <li>otherwise it is a duplicate iff an earlier kept row {@code k} of the same key is still in state:
 *       kept in the same batch (eviction runs at the start of a batch only), or with
 *       {@code t(k) + delay > W(b)} (not yet evicted: the watermark never went back, so this is the same as
 *       surviving every eviction between its batch and {@code b});
 *   <li>every other row is kept.
 * </ul>
 */
class DedupWithinWatermarkOracleTest {
  private static final int EVENTS = 400;
  private static final String[] KEYS = {"a", "b", "c", "d", "e", "f"};

  private record Arrival(Row row, int batch) {
    String key() {
      return (String) row.get(0);
    }

    long micros() {
      return DedupColumns.micros((Instant) row.get(2));
    }
  }

  @ParameterizedTest
  @CsvSource({"1, 5000", "2, 5000", "3, 0", "4, 1000", "5, 20000", "6, 300"})
  void streamingEqualsBatchComputation(long seed, long delayMs) {
    Random random = new Random(seed);
    List<List<Row>> batches = randomBatches(random, delayMs);
    long[] watermarks = watermarks(batches, delayMs);

    DedupHarness h = new DedupHarness(DedupSpec.dropDuplicatesWithinWatermark(List.of("id"), "ts", delayMs)
        .bind(DedupHarness.SCHEMA));
    List<Row> kept = new ArrayList<>();
    long dropped = 0;
    for (int b = 0; b < batches.size(); b++) {
      kept.addAll(h.batch(watermarks[b], batches.get(b)));
      dropped += h.step.lastDroppedByWatermark();
    }

    List<Arrival> arrivals = new ArrayList<>();
    for (int b = 0; b < batches.size(); b++) {
      for (Row r : batches.get(b)) {
        arrivals.add(new Arrival(r, b));
      }
    }
    List<Row> expectedKept = new ArrayList<>();
    List<Row> expectedLate = new ArrayList<>();
    List<Arrival> keptSoFar = new ArrayList<>();
    for (Arrival r : arrivals) {
      long w = watermarks[r.batch()] * 1000;
      if (r.micros() < w) {
        expectedLate.add(r.row());
        continue;
      }
      boolean duplicate = keptSoFar.stream().anyMatch(k -> k.key().equals(r.key())
          && (k.batch() == r.batch() || k.micros() + delayMs * 1000 > w));
      if (!duplicate) {
        keptSoFar.add(r);
        expectedKept.add(r.row());
      }
    }

    assertThat(kept).containsExactlyElementsOf(expectedKept);
    assertThat(h.late).containsExactlyElementsOf(expectedLate);
    assertThat(dropped).isEqualTo(expectedLate.size());
    // The data must exercise every case, or the comparison proves little.
    assertThat(expectedLate).isNotEmpty();
    assertThat(expectedKept.size()).isGreaterThan(KEYS.length);
    assertThat(expectedKept.size() + expectedLate.size()).isLessThan(EVENTS);
  }

  /** Event times drift forward, some jump back past the delay (late data); six keys make duplicates. */
  private static List<List<Row>> randomBatches(Random random, long delayMs) {
    List<List<Row>> batches = new ArrayList<>();
    List<Row> current = new ArrayList<>();
    int size = random.nextInt(15);
    long clock = 1_000_000;
    for (long seq = 0; seq < EVENTS; seq++) {
      clock += random.nextInt(300);
      long ts = clock - (random.nextInt(4) == 0 ? random.nextInt((int) delayMs + 10_000) : 0);
      current.add(DedupHarness.row(KEYS[random.nextInt(KEYS.length)], seq, ts));
      while (current.size() >= size) {
        batches.add(current);
        current = new ArrayList<>();
        size = random.nextInt(15);
      }
    }
    batches.add(current);
    return batches;
  }

  private static long[] watermarks(List<List<Row>> batches, long delayMs) {
    long[] out = new long[batches.size()];
    long maxEventMs = Long.MIN_VALUE;
    long watermark = 0;
    for (int b = 0; b < batches.size(); b++) {
      out[b] = watermark;
      for (Row r : batches.get(b)) {
        maxEventMs = Math.max(maxEventMs, ((Instant) r.get(2)).toEpochMilli());
      }
      watermark = Math.max(watermark, maxEventMs - delayMs);
    }
    return out;
  }
}
