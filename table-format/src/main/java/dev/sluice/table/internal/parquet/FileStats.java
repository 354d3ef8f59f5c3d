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
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

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
      if (leaf.min != null) {
        JsonNode lower = lowerBound(leaf.type, leaf.min);
        JsonNode upper = upperBound(leaf.type, leaf.max);
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

  private static JsonNode lowerBound(DataType type, Object value) {
    if (type == PrimitiveType.STRING) {
      return MAPPER.getNodeFactory().textNode(prefix((String) value, STRING_PREFIX));
    }
    return bound(value);
  }

  private static JsonNode upperBound(DataType type, Object value) {
    if (type == PrimitiveType.STRING) {
      String max = truncatedMax((String) value);
      return max == null ? null : MAPPER.getNodeFactory().textNode(max);
    }
    return bound(value);
  }

  private static JsonNode bound(Object value) {
    var nodes = MAPPER.getNodeFactory();
    if (value instanceof Double d) {
      return d.isInfinite() ? null : nodes.numberNode(d);
    }
    if (value instanceof Float f) {
      return f.isInfinite() ? null : nodes.numberNode(f);
    }
    if (value instanceof Long l) {
      return nodes.numberNode(l);
    }
    if (value instanceof Integer i) {
      return nodes.numberNode(i);
    }
    if (value instanceof Short s) {
      return nodes.numberNode(s);
    }
    if (value instanceof Byte b) {
      return nodes.numberNode(b);
    }
    if (value instanceof BigDecimal d) {
      return nodes.numberNode(d);
    }
    if (value instanceof LocalDate d) {
      return nodes.textNode(d.toString());
    }
    if (value instanceof Instant t) {
      return nodes.textNode(TIMESTAMP.format(t.truncatedTo(ChronoUnit.MILLIS)));
    }
    throw new IllegalStateException("No statistics bound for " + value.getClass().getName());
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

  /** Statistics of one leaf column; {@code path} are field ordinals from the row down. */
  private static class Leaf {
    final int[] path;
    final String[] names;
    final DataType type;
    Object min;
    Object max;
    long nulls;

    Leaf(int[] path, String[] names, DataType type) {
      this.path = path;
      this.names = names;
      this.type = type;
    }

    /** The leaf for a column of this type: typed so that the per-row work is one comparison or two. */
    static Leaf of(int[] path, String[] names, DataType type) {
      if (type == PrimitiveType.STRING) {
        return new StringLeaf(path, names, type);
      }
      if (type == PrimitiveType.DOUBLE || type == PrimitiveType.FLOAT) {
        return new FloatingLeaf(path, names, type);
      }
      if (type.isOrderable() && type != PrimitiveType.TIMESTAMP_NTZ) {
        return new OrderedLeaf(path, names, type);
      }
      return new Leaf(path, names, type);
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
  }

  private static final class StringLeaf extends Leaf {
    StringLeaf(int[] path, String[] names, DataType type) {
      super(path, names, type);
    }

    @Override
    void bound(Object value) {
      String s = (String) value;
      if (min == null) {
        min = s;
        max = s;
      } else if (compareCodePoints(s, (String) min) < 0) {
        min = s;
      } else if (compareCodePoints(s, (String) max) > 0) {
        max = s;
      }
    }
  }

  private static class OrderedLeaf extends Leaf {
    OrderedLeaf(int[] path, String[] names, DataType type) {
      super(path, names, type);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    void bound(Object value) {
      if (min == null) {
        min = value;
        max = value;
      } else if (((Comparable) value).compareTo(min) < 0) {
        min = value;
      } else if (((Comparable) value).compareTo(max) > 0) {
        max = value;
      }
    }
  }

  /** NaN is no bound of anything: Spark and Kernel ignore it too. */
  private static final class FloatingLeaf extends OrderedLeaf {
    FloatingLeaf(int[] path, String[] names, DataType type) {
      super(path, names, type);
    }

    @Override
    void bound(Object value) {
      if (!(value instanceof Double d && d.isNaN()) && !(value instanceof Float f && f.isNaN())) {
        super.bound(value);
      }
    }
  }
}
