package dev.sluice.gold;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.Row;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gold {@code window: {type: session}} in append mode: the sessions written equal a plain batch sessionization of
 * silver's rows (per tier, sorted by time, a row within the gap of the session's end joins it).
 */
class GoldSessionWindowTest {
  private static final Instant BASE = Instant.parse("2026-01-01T00:00:00Z");
  private static final String[] CUSTOMERS = {"c1", "c2", "c3", "c4"};
  private static final String[] TIERS = {"gold", "silver", "gold", "bronze"};

  @TempDir
  java.nio.file.Path dir;

  private static String aggregate(String window) {
    return """
        group_by: [tier]
        window: %s
        measures: ["count(*) AS orders", "sum(amount) AS revenue"]
        output_mode: append
        watermark: {column: event_time, delay: 10 minutes}
        """.formatted(window);
  }

  @Test
  void sessionsOfAFixedGapEqualABatchSessionization() {
    check(aggregate("{type: session, column: event_time, gap: 5 minutes}"), tier -> Duration.ofMinutes(5), 11);
  }

  @Test
  void aGapExpressionPerRowEqualsABatchSessionizationWithThatGap() {
    check(aggregate("{type: session, column: event_time, gap_expr: \"CASE WHEN tier = 'gold' THEN '8 minutes'"
        + " ELSE '3 minutes' END\"}"), tier -> Duration.ofMinutes(tier.equals("gold") ? 8 : 3), 12);
  }

  private void check(String aggregateYaml, Function<String, Duration> gapOfTier, long seed) {
    try (GoldFixture f = new GoldFixture(dir, aggregateYaml)) {
      for (int c = 0; c < CUSTOMERS.length; c++) {
        f.customer(CUSTOMERS[c], TIERS[c]);
      }
      Random random = new Random(seed);
      List<Row> all = new ArrayList<>();
      long id = 0;
      for (int run = 0; run < 4; run++) {
        // Disorder within a run and across runs, never behind the watermark (10 minutes behind the latest row).
        long from = run * 20L * 60 - 4 * 60;
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
          long second = Math.max(0, from + random.nextInt(24 * 60));
          String status = random.nextInt(10) == 0 ? "cancelled" : "paid";
          rows.add(Row.of(++id, CUSTOMERS[random.nextInt(CUSTOMERS.length)],
              new BigDecimal(random.nextInt(10_000)).movePointLeft(2), status, BASE.plusSeconds(second), null));
        }
        all.addAll(rows);
        f.insert(rows.subList(0, 20).toArray(Row[]::new));
        f.insert(rows.subList(20, 40).toArray(Row[]::new));
        f.run();
      }
      // A row a day later moves the watermark past every session so far; its own session stays open.
      f.insert(Row.of(++id, "c1", new BigDecimal("1.00"), "paid", BASE.plus(Duration.ofDays(2)), null));
      f.run();

      assertThat(f.goldResult(List.of("orders", "revenue"))).isEqualTo(sessions(all, gapOfTier));
      assertThat(f.progress.stream().mapToLong(p -> GoldFixture.metric(p.observedMetrics(), "ledger.late")).sum())
          .isZero();
    }
  }

  /** The oracle: sessions per tier of the rows not cancelled, as "start|end|tier" → [count, sum]. */
  private static Map<String, List<Object>> sessions(List<Row> orders, Function<String, Duration> gapOfTier) {
    Map<String, List<Row>> byTier = new TreeMap<>();
    for (Row r : orders) {
      if (!"cancelled".equals(r.get(3))) {
        String tier = TIERS[java.util.Arrays.asList(CUSTOMERS).indexOf((String) r.get(1))];
        byTier.computeIfAbsent(tier, t -> new ArrayList<>()).add(r);
      }
    }
    Map<String, List<Object>> out = new TreeMap<>();
    byTier.forEach((tier, rows) -> {
      rows.sort(Comparator.comparing(r -> (Instant) r.get(4)));
      Duration gap = gapOfTier.apply(tier);
      Instant start = null;
      Instant end = null;
      long count = 0;
      BigDecimal sum = BigDecimal.ZERO;
      for (Row r : rows) {
        Instant t = (Instant) r.get(4);
        if (start != null && t.isAfter(end)) {
          out.put(start + "|" + end + "|" + tier, List.of(count, Oracle.normal(sum)));
          start = null;
        }
        if (start == null) {
          start = t;
          end = t.plus(gap);
          count = 0;
          sum = BigDecimal.ZERO;
        }
        end = t.plus(gap).isAfter(end) ? t.plus(gap) : end;
        count++;
        sum = sum.add((BigDecimal) r.get(2));
      }
      out.put(start + "|" + end + "|" + tier, List.of(count, Oracle.normal(sum)));
    });
    return out;
  }
}
