package dev.sluice.gold;

import dev.sluice.table.data.Row;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The gold query computed independently with plain collections over silver's and the customers'
 * current rows: left join on customer_id, tier = coalesce(tier, 'none'), status &lt;&gt; 'cancelled',
 * windows of {@code size} sliding by {@code slide} on event_time, grouped by tier; count, sum, min, max,
 * avg (decimal, scale + 4, half up) of amount.
 */
final class Oracle {
  private Oracle() {}

  static Map<String, List<Object>> compute(List<Row> orders, List<Row> customers, Duration size, Duration slide) {
    Map<String, String> tiers = new HashMap<>();
    customers.forEach(c -> tiers.put((String) c.get(0), (String) c.get(1)));
    Map<String, List<BigDecimal>> amounts = new TreeMap<>();
    for (Row o : orders) {
      if ("cancelled".equals(o.get(3)) || o.get(3) == null || o.get(4) == null) {
        continue; // status <> 'cancelled' is not true for null status either
      }
      String tier = tiers.get((String) o.get(1));
      tier = tier == null ? "none" : tier;
      Instant t = (Instant) o.get(4);
      long ms = t.toEpochMilli();
      long lastStart = ms - Math.floorMod(ms, slide.toMillis());
      for (long start = lastStart; start + size.toMillis() > ms; start -= slide.toMillis()) {
        String key = Instant.ofEpochMilli(start) + "|" + Instant.ofEpochMilli(start + size.toMillis()) + "|" + tier;
        amounts.computeIfAbsent(key, k -> new ArrayList<>()).add((BigDecimal) o.get(2));
      }
    }
    Map<String, List<Object>> out = new TreeMap<>();
    amounts.forEach((key, values) -> {
      List<BigDecimal> present = values.stream().filter(v -> v != null).toList();
      BigDecimal sum = present.stream().reduce(BigDecimal.ZERO, BigDecimal::add);
      List<Object> measures = new ArrayList<>();
      measures.add((long) values.size());
      measures.add(present.isEmpty() ? null : normal(sum));
      measures.add(present.stream().min(BigDecimal::compareTo).map(Oracle::normal).orElse(null));
      measures.add(present.stream().max(BigDecimal::compareTo).map(Oracle::normal).orElse(null));
      measures.add(present.isEmpty() ? null
          : normal(sum.divide(BigDecimal.valueOf(present.size()), 6, RoundingMode.HALF_UP)));
      out.put(key, measures);
    });
    return out;
  }

  /**
   * The same query with the invertible measures of {@link GoldStateTest}: count(*), count(amount),
   * sum(amount), avg(amount) (decimal, scale + 4, half up), count(quantity), sum(quantity) and
   * avg(quantity) (as a double).
   */
  static Map<String, List<Object>> computeInvertible(List<Row> orders, List<Row> customers, Duration size,
      Duration slide) {
    Map<String, String> tiers = new HashMap<>();
    customers.forEach(c -> tiers.put((String) c.get(0), (String) c.get(1)));
    Map<String, List<Row>> groups = new TreeMap<>();
    for (Row o : orders) {
      if ("cancelled".equals(o.get(3)) || o.get(3) == null || o.get(4) == null) {
        continue;
      }
      String tier = tiers.get((String) o.get(1));
      tier = tier == null ? "none" : tier;
      long ms = ((Instant) o.get(4)).toEpochMilli();
      long lastStart = ms - Math.floorMod(ms, slide.toMillis());
      for (long start = lastStart; start + size.toMillis() > ms; start -= slide.toMillis()) {
        String key = Instant.ofEpochMilli(start) + "|" + Instant.ofEpochMilli(start + size.toMillis()) + "|" + tier;
        groups.computeIfAbsent(key, k -> new ArrayList<>()).add(o);
      }
    }
    Map<String, List<Object>> out = new TreeMap<>();
    groups.forEach((key, rows) -> {
      List<BigDecimal> amounts = rows.stream().map(r -> (BigDecimal) r.get(2)).filter(v -> v != null).toList();
      List<Long> quantities = rows.stream().map(r -> (Long) r.get(5)).filter(v -> v != null).toList();
      BigDecimal sum = amounts.stream().reduce(BigDecimal.ZERO, BigDecimal::add);
      long units = quantities.stream().mapToLong(Long::longValue).sum();
      List<Object> measures = new ArrayList<>();
      measures.add((long) rows.size());
      measures.add((long) amounts.size());
      measures.add(amounts.isEmpty() ? null : normal(sum));
      measures.add(amounts.isEmpty() ? null
          : normal(sum.divide(BigDecimal.valueOf(amounts.size()), 6, RoundingMode.HALF_UP)));
      measures.add((long) quantities.size());
      measures.add(quantities.isEmpty() ? null : units);
      measures.add(quantities.isEmpty() ? null : (double) units / quantities.size());
      out.put(key, measures);
    });
    return out;
  }

  static Object normal(Object v) {
    return v instanceof BigDecimal d ? (d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros()) : v;
  }
}
