package dev.sluice.ingestion.internal.spill;

import dev.sluice.table.data.Row;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Map;

/**
 * A rough estimate of the heap a row holds (64-bit JVM, compressed pointers): close enough to decide when a
 * buffer spills, never exact (shared values, e.g. a file path repeated on every row, are counted on each).
 */
final class RowSizes {
  private RowSizes() {}

  static long of(Row row) {
    int n = row.size();
    long bytes = 16 + 16 + 4L * n;
    for (int i = 0; i < n; i++) {
      bytes += value(row.get(i));
    }
    return bytes;
  }

  private static long value(Object v) {
    if (v == null || v instanceof Boolean) {
      return 0;
    }
    if (v instanceof String s) {
      return 40 + s.length();
    }
    if (v instanceof Long || v instanceof Integer || v instanceof Double || v instanceof Short
        || v instanceof Byte || v instanceof Float) {
      return 16;
    }
    if (v instanceof BigDecimal d) {
      return d.precision() > 18 ? 80 : 40;
    }
    if (v instanceof byte[] b) {
      return 16 + b.length;
    }
    if (v instanceof Row r) {
      return of(r);
    }
    if (v instanceof Collection<?> c) {
      long bytes = 40 + 8L * c.size();
      for (Object e : c) {
        bytes += value(e);
      }
      return bytes;
    }
    if (v instanceof Map<?, ?> m) {
      long bytes = 64 + 40L * m.size();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        bytes += value(e.getKey()) + value(e.getValue());
      }
      return bytes;
    }
    return 24; // Instant, LocalDate and other small values
  }
}
