package dev.sluice.ingestion.internal.plan.join;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.util.List;
import java.util.Set;

/**
 * The key columns of one side of the join and how their values compare: integral types as long, decimals
 * by value whatever their scale, -0.0 as 0.0; a key with a null value matches nothing (SQL equality).
 */
final class JoinKeys {
  private static final Set<DataType> INTEGRAL =
      Set.of(PrimitiveType.BYTE, PrimitiveType.SHORT, PrimitiveType.INTEGER, PrimitiveType.LONG);

  private final int[] ordinals;

  private JoinKeys(int[] ordinals) {
    this.ordinals = ordinals;
  }

  /**
   * @throws IllegalArgumentException naming an unknown column, with the known ones
   */
  static JoinKeys resolve(List<String> names, StructType schema, String sideName) {
    int[] ordinals = new int[names.size()];
    for (int i = 0; i < ordinals.length; i++) {
      ordinals[i] = schema.indexOf(names.get(i));
      if (ordinals[i] < 0) {
        throw new IllegalArgumentException("Stream-static join: unknown join column '" + names.get(i) + "' of "
            + sideName + "; its columns are " + schema.fieldNames() + "; fix the column name in the join keys");
      }
    }
    return new JoinKeys(ordinals);
  }

  /**
   * @throws IllegalArgumentException when a pair of key columns can't be compared
   */
  static void checkComparable(JoinKeys left, StructType leftSchema, JoinKeys right, StructType rightSchema) {
    for (int i = 0; i < left.ordinals.length; i++) {
      DataType l = leftSchema.field(left.ordinals[i]).type();
      DataType r = rightSchema.field(right.ordinals[i]).type();
      boolean ok = l.equals(r) || (INTEGRAL.contains(l) && INTEGRAL.contains(r))
          || (l instanceof DecimalType && r instanceof DecimalType);
      if (!ok) {
        throw new IllegalArgumentException("Stream-static join: key columns '" + leftSchema.field(left.ordinals[i]).name()
            + "' (" + l.typeName() + ") and '" + rightSchema.field(right.ordinals[i]).name() + "' (" + r.typeName()
            + ") have types that can't be compared; cast one of them (e.g. with withColumn) to the other's type");
      }
    }
  }

  int[] ordinals() {
    return ordinals;
  }

  /** The comparable key of {@code row}, or null when a key value is null. */
  Row keyOf(Row row) {
    Object[] values = new Object[ordinals.length];
    for (int i = 0; i < values.length; i++) {
      Object v = row.get(ordinals[i]);
      if (v == null) {
        return null;
      }
      values[i] = normalize(v);
    }
    return Row.of(values);
  }

  /**
   * What the join's hash table is keyed by: for one key column the comparable value itself (a String
   * brings its cached hash: no key row, no array per probe), {@code byte[]} wrapped to compare by content;
   * for several columns {@link #keyOf}. Null when a key value is null.
   */
  Object hashKeyOf(Row row) {
    if (ordinals.length != 1) {
      return keyOf(row);
    }
    Object v = row.get(ordinals[0]);
    if (v == null) {
      return null;
    }
    return v instanceof byte[] b ? java.nio.ByteBuffer.wrap(b) : normalize(v);
  }

  private static Object normalize(Object v) {
    if (v instanceof Byte || v instanceof Short || v instanceof Integer) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigDecimal d) {
      return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
    }
    if (v instanceof Double d && d == 0.0) {
      return 0.0d;
    }
    if (v instanceof Float f && f == 0.0f) {
      return 0.0f;
    }
    return v;
  }
}
