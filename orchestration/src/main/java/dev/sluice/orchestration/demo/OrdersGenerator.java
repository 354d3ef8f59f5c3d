package dev.sluice.orchestration.demo;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Writes data in the orders format of {@code shared/bench/ORDERS-FORMAT.md}: order events (new orders,
 * exact retries, later updates, broken lines; event time trailing arrival by 0–5 minutes and ~1 % by
 * 5–30 minutes) and a customers dimension. Deterministic for a seed, so that tests can recompute
 * what each layer must hold.
 */
public final class OrdersGenerator {
  private static final String[] TIERS = {"standard", "premium", "enterprise"};
  private static final String[] REGIONS = {"us-east", "us-west", "eu-west", "eu-central", "ap-south", "ap-northeast"};
  private static final String[] STATUS_AFTER = {"paid", "shipped", "cancelled", "refunded"};
  private static final long START_MS = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();

  private final Random random;
  private final List<String> recentLines = new ArrayList<>();
  private final List<long[]> recentOrders = new ArrayList<>();   // {order number, last updated_at ms}
  private long nextOrder;
  private long arrival;     // the arrival clock, in events (20 per second of event time)
  private long lines;
  private long broken;

  public OrdersGenerator(long seed) {
    this.random = new Random(seed);
  }

  /** Writes {@code files} files of {@code linesPerFile} lines, named {@code orders-<first+i>.jsonl}. */
  public void writeOrders(Path dir, int firstFile, int files, int linesPerFile) {
    try {
      Files.createDirectories(dir);
      for (int f = firstFile; f < firstFile + files; f++) {
        Path tmp = dir.resolve(".orders-" + f + ".tmp");
        try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
          for (int i = 0; i < linesPerFile; i++) {
            w.write(nextLine());
            w.write('\n');
          }
        }
        Path target = dir.resolve(String.format(Locale.ROOT, "orders-%05d.jsonl", f));
        Files.move(tmp, target);
        // File names sort in arrival order; so do modification times (discovery uses them).
        target.toFile().setLastModified(1_700_000_000_000L + f * 1000L);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code customers.jsonl} with {@code count} customers. */
  public void writeCustomers(Path dir, int count) {
    try {
      Files.createDirectories(dir);
      StringBuilder sb = new StringBuilder();
      Random r = new Random(7);
      for (int c = 0; c < count; c++) {
        double p = r.nextDouble();
        String tier = p < 0.70 ? TIERS[0] : p < 0.95 ? TIERS[1] : TIERS[2];
        sb.append(String.format(Locale.ROOT, "{\"customer_id\":\"c-%05d\",\"tier\":\"%s\",\"region\":\"%s\"}%n", c, tier,
            REGIONS[r.nextInt(REGIONS.length)]));
      }
      Files.writeString(dir.resolve("customers.jsonl"), sb.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String nextLine() {
    lines++;
    arrival++;
    double p = random.nextDouble();
    if (p < 0.001) {
      broken++;
      String valid = newOrder();
      return valid.substring(0, 5 + random.nextInt(valid.length() - 10));
    }
    if (p < 0.051 && !recentLines.isEmpty()) {
      return recentLines.get(random.nextInt(recentLines.size()));
    }
    String line = p < 0.081 && !recentOrders.isEmpty() ? update() : newOrder();
    recentLines.add(line);
    if (recentLines.size() > 2000) {
      recentLines.remove(0);
    }
    return line;
  }

  private long eventTimeMs() {
    long arrivalMs = START_MS + arrival * 50;
    long lagMs = random.nextDouble() < 0.01 ? 300_000 + random.nextInt(1_500_000) : random.nextInt(300_000);
    return arrivalMs - lagMs;
  }

  private String newOrder() {
    long n = nextOrder++;
    long t = eventTimeMs();
    recentOrders.add(new long[] {n, t});
    if (recentOrders.size() > 20_000) {
      recentOrders.remove(0);
    }
    return line(n, random.nextInt(10_000), t, 500 + random.nextInt(49_501), "created", t);
  }

  private String update() {
    long[] order = recentOrders.get(random.nextInt(recentOrders.size()));
    long updated = Math.max(order[1] + 1 + random.nextInt(60_000), START_MS + arrival * 50);
    order[1] = updated;
    long eventTime = eventTimeMs();
    // the customer of an order never changes: derive it from the order number's first line
    return line(order[0], customerOf(order[0]), eventTime, 500 + random.nextInt(49_501),
        STATUS_AFTER[random.nextInt(STATUS_AFTER.length)], updated);
  }

  private final java.util.Map<Long, Integer> customers = new java.util.HashMap<>();

  private int customerOf(long order) {
    return customers.getOrDefault(order, 0);
  }

  private String line(long order, int customer, long eventMs, int cents, String status, long updatedMs) {
    customers.putIfAbsent(order, customer);
    return String.format(Locale.ROOT,
        "{\"order_id\":\"o-%010d\",\"customer_id\":\"c-%05d\",\"event_time\":\"%s\",\"amount\":%d.%02d,"
            + "\"status\":\"%s\",\"updated_at\":\"%s\"}",
        order, customers.get(order), Instant.ofEpochMilli(eventMs), cents / 100, cents % 100, status,
        Instant.ofEpochMilli(updatedMs));
  }

  /** Lines written so far. */
  public long lines() {
    return lines;
  }

  /** Broken (cut short) lines written so far. */
  public long brokenLines() {
    return broken;
  }
}
