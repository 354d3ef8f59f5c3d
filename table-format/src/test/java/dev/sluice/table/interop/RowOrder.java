package dev.sluice.table.interop;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A total order over normalised rows, so two reads of the same table sort identically whatever
 * order their files were listed in: nulls first, then values of one class by their natural order
 * ({@code byte[]}, lists and maps element by element), and values of different classes by class name.
 */
final class RowOrder {

  static final Comparator<List<Object>> ROWS = RowOrder::compareLists;

  private RowOrder() {}

  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compareValues(Object a, Object b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    if (a.getClass() != b.getClass() && !(a instanceof List && b instanceof List)
        && !(a instanceof Map && b instanceof Map)) {
      return a.getClass().getName().compareTo(b.getClass().getName());
    }
    if (a instanceof byte[] x) {
      return Arrays.compareUnsigned(x, (byte[]) b);
    }
    if (a instanceof List<?> x) {
      return compareLists((List<Object>) x, (List<Object>) b);
    }
    if (a instanceof Map<?, ?> x) {
      return compareLists(entries(x), entries((Map<?, ?>) b));
    }
    if (a instanceof Comparable x) {
      return x.compareTo(b);
    }
    throw new IllegalArgumentException(
        "Cannot order values of " + a.getClass().getName() + ": interop rows hold only Sluice's Java mapping.");
  }

  static int compareLists(List<Object> a, List<Object> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = compareValues(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  // Map iteration order depends on how it was built; its sorted entries do not.
  private static List<Object> entries(Map<?, ?> map) {
    List<Object> entries = new ArrayList<>();
    map.forEach((k, v) -> entries.add(Arrays.asList(k, v)));
    entries.sort(RowOrder::compareValues);
    return entries;
  }
}
