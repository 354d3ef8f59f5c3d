package dev.sluice.bench;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.Random;

/** Deterministic rows of the orders shape (shared/bench/ORDERS-FORMAT.md) for benchmarks. */
final class OrdersData {
  static final StructType SCHEMA = StructType.of(
      StructField.of("id", PrimitiveType.STRING, false),
      StructField.of("customer", PrimitiveType.STRING),
      StructField.of("event_time", PrimitiveType.TIMESTAMP),
      StructField.of("amount", PrimitiveType.DOUBLE),
      StructField.of("status", PrimitiveType.STRING),
      StructField.of("updated_at", PrimitiveType.TIMESTAMP));

  private static final String[] STATUS = {"created", "paid", "shipped", "cancelled", "refunded"};
  private static final long START_MICROS = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli() * 1000;

  private OrdersData() {}

  static String id(long i) {
    return String.format("o-%010d", i);
  }

  /** Order {@code i}, 20 events per second of event time, as the benchmark data set. */
  static Row order(long i, Random random, int version) {
    long micros = START_MICROS + i * 50_000L;
    Instant eventTime = Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000);
    double amount = 5 + random.nextInt(49_501) / 100.0;
    return Row.of(id(i), String.format("c-%05d", random.nextInt(10_000)), eventTime, amount,
        STATUS[version % STATUS.length], eventTime.plusSeconds(version));
  }
}
