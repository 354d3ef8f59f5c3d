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

  static Object normal(Object v) {
    return v instanceof BigDecimal d ? (d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros()) : v;
  }
}
