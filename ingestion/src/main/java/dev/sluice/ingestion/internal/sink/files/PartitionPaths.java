package dev.sluice.ingestion.internal.sink.files;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;

/**
 * Hive-style partition folders, as Spark's file sinks write them: {@code col=value/} per partition column, in
 * {@code partitionBy} order; the partition columns are left out of the files; a null value is
 * {@value #NULL}; characters that can't be in a folder name are %-escaped.
 */
final class PartitionPaths {
  static final String NULL = "__HIVE_DEFAULT_PARTITION__";
  private final int[] partitionColumns;
  private final int[] dataColumns;
  private final List<String> names;
  private final StructType dataSchema;

  private PartitionPaths(int[] partitionColumns, int[] dataColumns, List<String> names, StructType dataSchema) {
    this.partitionColumns = partitionColumns;
    this.dataColumns = dataColumns;
    this.names = names;
    this.dataSchema = dataSchema;
  }

  /**
   * @throws IllegalArgumentException for an unknown partition column (naming the known ones), one of a nested or
   *     binary type, or when every column would be a partition column
   */
  static PartitionPaths of(StructType schema, List<String> partitionBy) {
    int[] parts = new int[partitionBy.size()];
    for (int i = 0; i < parts.length; i++) {
      String name = partitionBy.get(i);
      parts[i] = schema.indexOf(name);
      if (parts[i] < 0) {
        throw new IllegalArgumentException("Partition column '" + name + "' is not a column of the stream; its"
            + " columns are " + schema.fieldNames() + ": fix partitionBy(...)");
      }
      DataType t = schema.field(parts[i]).type();
      if (!(t instanceof PrimitiveType) || t == PrimitiveType.BINARY) {
        throw new IllegalArgumentException("Cannot use " + t.typeName() + " column '" + name + "' for partitioning:"
            + " partition by a string, number, boolean, date or timestamp column");
      }
    }
    List<Integer> data = new ArrayList<>();
    StructType dataSchema = StructType.empty();
    for (int i = 0; i < schema.size(); i++) {
      if (!partitionBy.contains(schema.field(i).name())) {
        data.add(i);
        dataSchema = dataSchema.add(schema.field(i));
      }
    }
    if (data.isEmpty()) {
      throw new IllegalArgumentException("Cannot use all columns " + schema.fieldNames() + " for partitioning: the"
          + " files would hold no column; partition by fewer columns");
    }
    return new PartitionPaths(parts, data.stream().mapToInt(Integer::intValue).toArray(), List.copyOf(partitionBy),
        dataSchema);
  }

  StructType dataSchema() {
    return dataSchema;
  }

  /** The row's partition folder, e.g. {@code date=2026-12-02/country=DE}, or empty without partition columns. */
  String folderOf(Row row) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < partitionColumns.length; i++) {
      Object v = row.get(partitionColumns[i]);
      if (i > 0) {
        sb.append('/');
      }
      sb.append(escape(names.get(i))).append('=').append(v == null ? NULL : escape(v.toString()));
    }
    return sb.toString();
  }

  /** The row without its partition columns. */
  Row dataRow(Row row) {
    if (partitionColumns.length == 0) {
      return row;
    }
    Object[] out = new Object[dataColumns.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = row.get(dataColumns[i]);
    }
    return Row.of(out);
  }

  /** Spark's {@code escapePathName}: control characters, the slash and the characters quote, hash, percent, etc. become {@code %XX}. */
  static String escape(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f || "\"#%'*/:=?\\[]^{}".indexOf(c) >= 0) {
        sb.append('%').append(String.format("%02X", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /** The inverse of {@link #escape}. */
  static String unescape(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%' && isHex(s, i + 1) && isHex(s, i + 2)) {
        sb.append((char) Integer.parseInt(s.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /**
   * The partition values in a file's path relative to the output folder, e.g. {@code date=2026-12-02/part-0.json}
   * gives {@code date → 2026-12-02}; {@value #NULL} gives null.
   */
  static java.util.Map<String, String> valuesOf(String relativeKey) {
    java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
    String[] parts = relativeKey.split("/");
    for (int i = 0; i < parts.length - 1; i++) {
      int eq = parts[i].indexOf('=');
      if (eq > 0) {
        String value = unescape(parts[i].substring(eq + 1));
        out.put(unescape(parts[i].substring(0, eq)), value.equals(NULL) ? null : value);
      }
    }
    return out;
  }

  private static boolean isHex(String s, int i) {
    return i < s.length() && Character.digit(s.charAt(i), 16) >= 0;
  }
}
