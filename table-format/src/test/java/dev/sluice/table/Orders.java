package dev.sluice.table;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The orders shape used across tests and benchmarks (see shared/bench/ORDERS-FORMAT.md). */
final class Orders {
  static final StructType SCHEMA = StructType.of(
      StructField.of("id", PrimitiveType.STRING, false),
      StructField.of("customer", PrimitiveType.STRING),
      StructField.of("ts", PrimitiveType.TIMESTAMP),
      StructField.of("amount", PrimitiveType.DOUBLE),
      StructField.of("status", PrimitiveType.STRING),
      StructField.of("updated_at", PrimitiveType.TIMESTAMP));

  static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

  private Orders() {}

  static Row order(int i, String status, double amount, long updatedSeconds) {
    return Row.of(String.format("o%06d", i), "c" + (i % 7), T0.plusSeconds(i), amount, status, T0.plusSeconds(updatedSeconds));
  }

  static List<Row> range(int from, int to) {
    List<Row> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(order(i, "open", i * 1.5, 0));
    }
    return out;
  }
}
