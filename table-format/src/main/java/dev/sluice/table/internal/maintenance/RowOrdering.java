package dev.sluice.table.internal.maintenance;

import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * How OPTIMIZE orders the rows it rewrites: by a Z-order curve over several columns (Delta's {@code ZORDER BY}:
 * rows close in every column land in the same files, so min/max stats skip files for a filter on any of them),
 * or lexicographically by the columns ({@code CLUSTER BY}: best for the first column, still good for the next).
 */
public final class RowOrdering {
  /** The kind of ordering; its name goes into the file tag that makes a second run skip ordered files. */
  public enum Mode { ZORDER, CLUSTER }

  /**
   * The table property naming the columns a plain OPTIMIZE clusters by (comma-separated, the first major), as
   * {@code CLUSTER BY} on a Delta table with liquid clustering does; a Sluice property, since Delta keeps its
   * clustering columns in a domain metadata action that Sluice does not write.
   */
  public static final String CLUSTERING_COLUMNS_PROPERTY = "sluice.clusteringColumns";

  private final Mode mode;
  private final List<String> columns;
  private final int[] indexes;

  private RowOrdering(Mode mode, List<String> columns, int[] indexes) {
    this.mode = mode;
    this.columns = List.copyOf(columns);
    this.indexes = indexes;
  }

  /**
   * @throws InvalidOperationException if a column is unknown, a partition column or of a type without order
   */
  public static RowOrdering of(Mode mode, List<String> columns, StructType schema, List<String> partitionColumns) {
    int[] indexes = new int[columns.size()];
    for (int i = 0; i < indexes.length; i++) {
      String c = columns.get(i);
      int idx = schema.indexOf(c);
      if (idx < 0) {
        throw new InvalidOperationException("Cannot " + verb(mode) + " '" + c + "': the table has no such column."
            + " Its columns are " + schema.fieldNames() + ".");
      }
      if (partitionColumns.stream().anyMatch(p -> p.equalsIgnoreCase(c))) {
        throw new InvalidOperationException("Cannot " + verb(mode) + " '" + c + "': it is a partition column, so"
            + " every file already holds a single value of it. Order by data columns only.");
      }
      if (!(schema.field(idx).type() instanceof PrimitiveType)) {
        throw new InvalidOperationException("Cannot " + verb(mode) + " '" + c + "': its type "
            + schema.field(idx).type() + " has no order. Order by columns of primitive types.");
      }
      indexes[i] = idx;
    }
    return new RowOrdering(mode, columns, indexes);
  }

  /** The columns of {@link #CLUSTERING_COLUMNS_PROPERTY} in {@code configuration} (none when unset). */
  public static List<String> clusteringColumns(java.util.Map<String, String> configuration) {
    String raw = configuration.get(CLUSTERING_COLUMNS_PROPERTY);
    if (raw == null || raw.isBlank()) {
      return List.of();
    }
    return Arrays.stream(raw.split(",")).map(String::trim).filter(c -> !c.isEmpty()).toList();
  }

  private static String verb(Mode mode) {
    return mode == Mode.ZORDER ? "Z-order by" : "cluster by";
  }

  public Mode mode() {
    return mode;
  }

  public List<String> columns() {
    return columns;
  }

  /** The tag value files written in this order carry, e.g. {@code zorder:[a, b]}. */
  public String tag() {
    return mode.name().toLowerCase(Locale.ROOT) + ":" + columns;
  }

  /**
   * Whether this order compares two rows on their own (clustering, or a Z-order over one column), so that rows can
   * be sorted in spilled runs ({@link SpillingSort}); a Z-order over several columns ranks every row among all.
   */
  public boolean comparesRows() {
    return mode == Mode.CLUSTER || indexes.length == 1;
  }

  /** The order of {@link #comparesRows} orderings. */
  public Comparator<Row> comparator() {
    return lexicographic();
  }

  /** Returns {@code rows} in this order (the list is sorted in place). */
  public List<Row> sort(List<Row> rows) {
    if (mode == Mode.CLUSTER || indexes.length == 1) {
      rows.sort(lexicographic());
      return rows;
    }
    long[] keys = zValues(rows);
    Integer[] order = new Integer[rows.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Long.compareUnsigned(keys[a], keys[b]));
    List<Row> out = new ArrayList<>(rows.size());
    for (Integer i : order) {
      out.add(rows.get(i));
    }
    return out;
  }

  private Comparator<Row> lexicographic() {
    return byColumns(indexes);
  }

  /** Rows in the order of the values at {@code indexes}, the first one major (nulls first), as CLUSTER BY sorts. */
  public static Comparator<Row> byColumns(int[] indexes) {
    Comparator<Row> c = (a, b) -> 0;
    for (int idx : indexes) {
      c = c.thenComparing((a, b) -> compareValues(a.get(idx), b.get(idx)));
    }
    return c;
  }

  /**
   * Each row's point on the Z-curve: every column's value becomes its rank among the rows, scaled to the
   * same number of bits, and the bits are interleaved. Ranks (not raw values) make skewed columns spread
   * as well as uniform ones, as Delta's range-partition ids do.
   */
  private long[] zValues(List<Row> rows) {
    int n = rows.size();
    int bits = Math.min(31, 64 / indexes.length);
    long[][] scaled = new long[indexes.length][];
    for (int c = 0; c < indexes.length; c++) {
      scaled[c] = scaledRanks(rows, indexes[c], bits);
    }
    long[] out = new long[n];
    for (int r = 0; r < n; r++) {
      long z = 0;
      for (int bit = bits - 1; bit >= 0; bit--) {
        for (int c = 0; c < indexes.length; c++) {
          z = (z << 1) | ((scaled[c][r] >>> bit) & 1L);
        }
      }
      out[r] = z;
    }
    return out;
  }

  private static long[] scaledRanks(List<Row> rows, int column, int bits) {
    int n = rows.size();
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> compareValues(rows.get(a).get(column), rows.get(b).get(column)));
    long[] rank = new long[n];
    long max = (1L << bits) - 1;
    int denseRank = 0;
    for (int i = 0; i < n; i++) {
      if (i > 0 && compareValues(rows.get(order[i - 1]).get(column), rows.get(order[i]).get(column)) != 0) {
        denseRank = i;
      }
      // Equal values share a rank, so they never straddle a curve boundary by accident.
      rank[order[i]] = n <= 1 ? 0 : (long) ((double) denseRank / (n - 1) * max);
    }
    return rank;
  }

  /** Nulls first; values of one column share one Java class, so their natural order is the column's order. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static int compareValues(Object a, Object b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.compareUnsigned(x, y);
    }
    return ((Comparable) a).compareTo(b);
  }
}
