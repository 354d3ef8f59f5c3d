package dev.sluice.table.internal.parquet;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import java.util.function.ToLongFunction;

/**
 * Collects a data file's Delta statistics ({@code add.stats}) row by row: {@code numRecords}, and for
 * the first {@code numIndexedCols} leaf columns (depth-first; an array or map counts as one leaf)
 * {@code nullCount}, plus {@code minValues}/{@code maxValues} for numbers, decimals, dates, timestamps
 * and strings. Struct columns give nested objects.
 *
 * <p>Every written bound is a true bound, because readers skip files by them: NaN is ignored; strings
 * are cut to 32 characters (a prefix is a lower bound; the maximum gets a U+10FFFF tie-breaker, as
 * Spark does); timestamps are written at millisecond precision, floored for both min and max, so a
 * reader must add 1 ms to a maximum before pruning (Spark's {@code DataSkippingReader} does).
 */
public final class FileStats {
  static final int STRING_PREFIX = 32;
  static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      // Keep a decimal's scale (Spark writes 3.346000 for decimal(15,6)); the default strips zeros.
      .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));
  static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  private static final int MAX_CODE_POINT = Character.MAX_CODE_POINT;

  private final Leaf[] leaves;
  private long numRecords;

  /**
   * A collector for rows of {@code schema}.
   *
   * @param numIndexedCols leaf columns that get statistics; -1 for all
   */
  public FileStats(StructType schema, int numIndexedCols) {
    List<Leaf> out = new ArrayList<>();
    collectLeaves(schema, new int[0], new String[0], numIndexedCols < 0 ? Integer.MAX_VALUE : numIndexedCols, out);
    this.leaves = out.toArray(new Leaf[0]);
  }

  private static void collectLeaves(StructType struct, int[] path, String[] names, int limit, List<Leaf> out) {
    for (int i = 0; i < struct.size() && out.size() < limit; i++) {
      StructField f = struct.field(i);
      int[] childPath = append(path, i);
      String[] childNames = append(names, f.name());
      if (f.type() instanceof StructType nested) {
        collectLeaves(nested, childPath, childNames, limit, out);
      } else {
        out.add(Leaf.of(childPath, childNames, f.type()));
      }
    }
  }

  private static int[] append(int[] a, int v) {
    int[] out = java.util.Arrays.copyOf(a, a.length + 1);
    out[a.length] = v;
    return out;
  }

  private static String[] append(String[] a, String v) {
    String[] out = java.util.Arrays.copyOf(a, a.length + 1);
    out[a.length] = v;
    return out;
  }

  /** Counts a row; values use the Java mapping of {@link DataType}. */
  public void add(Row row) {
    numRecords++;
    for (Leaf leaf : leaves) {
      leaf.add(valueAt(row, leaf.path));
    }
  }

  private static Object valueAt(Row row, int[] path) {
    if (path.length == 1) {
      return row.get(path[0]);
    }
    Object value = row;
    for (int ordinal : path) {
      value = ((Row) value).get(ordinal);
      if (value == null) {
        return null;
      }
    }
    return value;
  }

  public long numRecords() {
    return numRecords;
  }

  /** The statistics so far as the JSON string of {@code add.stats}. */
  public String toJson() {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("numRecords", numRecords);
    ObjectNode min = root.putObject("minValues");
    ObjectNode max = root.putObject("maxValues");
    ObjectNode nulls = root.putObject("nullCount");
    for (Leaf leaf : leaves) {
      if (leaf.hasBounds()) {
        JsonNode lower = leaf.lower();
        JsonNode upper = leaf.upper();
        // Both or neither: a lone bound would still be true, but Spark always writes them in pairs.
        if (lower != null && upper != null) {
          parent(min, leaf.names).set(leaf.names[leaf.names.length - 1], lower);
          parent(max, leaf.names).set(leaf.names[leaf.names.length - 1], upper);
        }
      }
      parent(nulls, leaf.names).put(leaf.names[leaf.names.length - 1], leaf.nulls);
    }
    try {
      return MAPPER.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Statistics could not be written as JSON", e);
    }
  }

  private static ObjectNode parent(ObjectNode root, String[] names) {
    ObjectNode node = root;
    for (int i = 0; i < names.length - 1; i++) {
      JsonNode child = node.get(names[i]);
      node = child instanceof ObjectNode o ? o : node.putObject(names[i]);
    }
    return node;
  }

  /** The first {@code n} code points (never splitting a surrogate pair). */
  static String prefix(String s, int n) {
    if (s.length() <= n) {
      return s;
    }
    int end = s.offsetByCodePoints(0, Math.min(n, s.codePointCount(0, s.length())));
    return s.substring(0, end);
  }

  /**
   * A string {@code >=} {@code s} of about 32 code points: a prefix plus U+10FFFF. The prefix is
   * extended past code points that are themselves U+10FFFF, else the result could be smaller than
   * {@code s}; null (no max) if that takes more than twice the prefix length.
   */
  static String truncatedMax(String s) {
    if (s.codePointCount(0, s.length()) <= STRING_PREFIX) {
      return s;
    }
    int end = s.offsetByCodePoints(0, STRING_PREFIX);
    int extra = 0;
    while (end < s.length() && s.codePointAt(end) == MAX_CODE_POINT) {
      end += Character.charCount(MAX_CODE_POINT);
      if (++extra > STRING_PREFIX) {
        return null;
      }
    }
    if (end >= s.length()) {
      return s;
    }
    return s.substring(0, end) + new String(Character.toChars(MAX_CODE_POINT));
  }

  /**
   * Compares strings by Unicode code point, the order of UTF-8 bytes that Spark and Kernel use (Java's
   * {@code compareTo} orders U+E000..U+FFFF after supplementary characters, which would break bounds).
   */
  static int compareCodePoints(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        return fixup(x) - fixup(y);
      }
    }
    return a.length() - b.length();
  }

  /** Moves surrogates above U+E000..U+FFFF so that UTF-16 units compare in code point order. */
  private static int fixup(char c) {
    if (c >= 0xD800) {
      return c >= 0xE000 ? c - 0x800 : c + 0x2000;
    }
    return c;
  }

  /**
   * Parses {@code add.stats} JSON, typing values by {@code schema}. Tolerant of what other writers
   * produce: Spark's local-offset timestamps ({@code 2000-01-01T00:00:00.000-08:00}), missing or
   * unknown columns, and values it cannot read (those columns are left out).
   *
   * @throws IllegalArgumentException if {@code json} is not a JSON object
   */
  public static ParsedStats parse(String json, StructType schema) {
    return StatsParser.parse(json, schema);
  }

  /**
   * Statistics of one leaf column; {@code path} are field ordinals from the row down. Bounds are kept
   * in primitive fields (a {@code long} key or a {@code double}) and turned into JSON only at the end,
   * so the per-row work is an unboxing and two comparisons.
   */
  private static class Leaf {
    final int[] path;
    final String[] names;
    long nulls;

    Leaf(int[] path, String[] names) {
      this.path = path;
      this.names = names;
    }

    static Leaf of(int[] path, String[] names, DataType type) {
      if (type == PrimitiveType.STRING) {
        return new StringLeaf(path, names);
      }
      if (type == PrimitiveType.DOUBLE || type == PrimitiveType.FLOAT) {
        return new FloatingLeaf(path, names, type == PrimitiveType.FLOAT);
      }
      if (type instanceof DecimalType) {
        return new DecimalLeaf(path, names);
      }
      if (type instanceof PrimitiveType p && p.isOrderable() && p != PrimitiveType.TIMESTAMP_NTZ) {
        return new IntegralLeaf(path, names, p);
      }
      return new Leaf(path, names);
    }

    final void add(Object value) {
      if (value == null) {
        nulls++;
      } else {
        bound(value);
      }
    }

    /** Widens min/max by a non-null value; only null counts for unordered types. */
    void bound(Object value) {}

    boolean hasBounds() {
      return false;
    }

    /** The JSON lower bound, or null if there is none that is true. */
    JsonNode lower() {
      return null;
    }

    JsonNode upper() {
      return null;
    }
  }

  /** Integers, dates (epoch day) and timestamps (epoch millisecond, floored) as one {@code long} key. */
  private static final class IntegralLeaf extends Leaf {
    private final ToLongFunction<Object> key;
    private final LongFunction<JsonNode> json;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;
    private boolean seen;

    IntegralLeaf(int[] path, String[] names, PrimitiveType type) {
      super(path, names);
      var nodes = MAPPER.getNodeFactory();
      switch (type) {
        case LONG -> {
          key = v -> (Long) v;
          json = nodes::numberNode;
        }
        case INTEGER -> {
          key = v -> (Integer) v;
          json = x -> nodes.numberNode((int) x);
        }
        case SHORT -> {
          key = v -> (Short) v;
          json = x -> nodes.numberNode((short) x);
        }
        case BYTE -> {
          key = v -> (Byte) v;
          json = x -> nodes.numberNode((byte) x);
        }
        case DATE -> {
          key = v -> ((LocalDate) v).toEpochDay();
          json = x -> nodes.textNode(LocalDate.ofEpochDay(x).toString());
        }
        case TIMESTAMP -> {
          // toEpochMilli floors (nanos are never negative), so min and max are floored alike.
          key = v -> ((Instant) v).toEpochMilli();
          json = x -> nodes.textNode(TIMESTAMP.format(Instant.ofEpochMilli(x)));
        }
        default -> throw new IllegalStateException("No integral statistics for " + type);
      }
    }

    @Override
    void bound(Object value) {
      long x = key.applyAsLong(value);
      if (x < min) {
        min = x;
      }
      if (x > max) {
        max = x;
      }
      seen = true;
    }

    @Override
    boolean hasBounds() {
      return seen;
    }

    @Override
    JsonNode lower() {
      return json.apply(min);
    }

    @Override
    JsonNode upper() {
      return json.apply(max);
    }
  }

  /** NaN is no bound of anything: Spark and Kernel ignore it too. Infinite bounds are left out. */
  private static final class FloatingLeaf extends Leaf {
    private final boolean isFloat;
    private double min;
    private double max;
    private boolean seen;

    FloatingLeaf(int[] path, String[] names, boolean isFloat) {
      super(path, names);
      this.isFloat = isFloat;
    }

    @Override
    void bound(Object value) {
      double x = isFloat ? (Float) value : (Double) value;
      if (Double.isNaN(x)) {
        return;
      }
      if (!seen) {
        min = x;
        max = x;
        seen = true;
      } else if (Double.compare(x, min) < 0) {
        min = x;
      } else if (Double.compare(x, max) > 0) {
        max = x;
      }
    }

    @Override
    boolean hasBounds() {
      return seen;
    }

    @Override
    JsonNode lower() {
      return json(min);
    }

    @Override
    JsonNode upper() {
      return json(max);
    }

    private JsonNode json(double x) {
      if (Double.isInfinite(x)) {
        return null;
      }
      return isFloat ? MAPPER.getNodeFactory().numberNode((float) x) : MAPPER.getNodeFactory().numberNode(x);
    }
  }

  private static final class DecimalLeaf extends Leaf {
    private BigDecimal min;
    private BigDecimal max;

    DecimalLeaf(int[] path, String[] names) {
      super(path, names);
    }

    @Override
    void bound(Object value) {
      BigDecimal d = (BigDecimal) value;
      if (min == null) {
        min = d;
        max = d;
      } else if (d.compareTo(min) < 0) {
        min = d;
      } else if (d.compareTo(max) > 0) {
        max = d;
      }
    }

    @Override
    boolean hasBounds() {
      return min != null;
    }

    @Override
    JsonNode lower() {
      return MAPPER.getNodeFactory().numberNode(min);
    }

    @Override
    JsonNode upper() {
      return MAPPER.getNodeFactory().numberNode(max);
    }
  }

  /**
   * Strings in code point order. Most values can move neither bound, and a 64-bit key of their first
   * four characters (compared with the bounds' keys) tells so without comparing whole strings; only a
   * value whose key ties or passes a bound's key is compared in full.
   */
  private static final class StringLeaf extends Leaf {
    private String min;
    private String max;
    private long minKey;
    private long maxKey;

    StringLeaf(int[] path, String[] names) {
      super(path, names);
    }

    @Override
    void bound(Object value) {
      String s = (String) value;
      long k = key(s);
      if (min == null) {
        min = s;
        max = s;
        minKey = k;
        maxKey = k;
        return;
      }
      int toMax = Long.compareUnsigned(k, maxKey);
      if (toMax > 0 || (toMax == 0 && s != max && compareCodePoints(s, max) > 0)) {
        max = s;
        maxKey = k;
        return;
      }
      int toMin = Long.compareUnsigned(k, minKey);
      if (toMin < 0 || (toMin == 0 && s != min && compareCodePoints(s, min) < 0)) {
        min = s;
        minKey = k;
      }
    }

    /**
     * The first four UTF-16 units in code point order, 16 bits each, padded with 0. A strictly smaller
     * key means a strictly smaller string (padding sorts a prefix first); equal keys decide nothing.
     */
    static long key(String s) {
      long k = 0;
      int n = s.length();
      for (int i = 0; i < 4; i++) {
        k = (k << 16) | (i < n ? fixup(s.charAt(i)) : 0);
      }
      return k;
    }

    @Override
    boolean hasBounds() {
      return min != null;
    }

    @Override
    JsonNode lower() {
      return MAPPER.getNodeFactory().textNode(prefix(min, STRING_PREFIX));
    }

    @Override
    JsonNode upper() {
      String truncated = truncatedMax(max);
      return truncated == null ? null : MAPPER.getNodeFactory().textNode(truncated);
    }
  }
}
