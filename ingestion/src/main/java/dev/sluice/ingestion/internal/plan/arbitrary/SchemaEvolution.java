package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The value schema changes a state variable may go through between runs, as Spark 4's {@code transformWithState}
 * allows: fields added (read as null, or a primitive's default), fields removed, fields reordered (matched by name),
 * numbers widened (byte → short → int → long, int/long → double, float → double). Anything else (a field changing
 * to an unrelated type) can't read the old values.
 */
final class SchemaEvolution {
  private static final Map<PrimitiveType, Set<PrimitiveType>> WIDENS_TO = Map.of(
      PrimitiveType.BYTE, Set.of(PrimitiveType.SHORT, PrimitiveType.INTEGER, PrimitiveType.LONG, PrimitiveType.DOUBLE),
      PrimitiveType.SHORT, Set.of(PrimitiveType.INTEGER, PrimitiveType.LONG, PrimitiveType.DOUBLE),
      PrimitiveType.INTEGER, Set.of(PrimitiveType.LONG, PrimitiveType.DOUBLE),
      PrimitiveType.LONG, Set.of(PrimitiveType.DOUBLE),
      PrimitiveType.FLOAT, Set.of(PrimitiveType.DOUBLE));

  private SchemaEvolution() {}

  /** The changes from {@code from} to {@code to} that old values can't follow, as lines naming the field. */
  static List<String> incompatibilities(StructType from, StructType to, String path) {
    List<String> out = new ArrayList<>();
    for (StructField f : to.fields()) {
      from.field(f.name()).ifPresent(old -> compare(old.type(), f.type(), path + "." + f.name(), out));
    }
    return out;
  }

  private static void compare(DataType from, DataType to, String path, List<String> out) {
    if (from.equals(to)) {
      return;
    }
    if (from instanceof StructType a && to instanceof StructType b) {
      out.addAll(incompatibilities(a, b, path));
    } else if (from instanceof ArrayType a && to instanceof ArrayType b) {
      compare(a.elementType(), b.elementType(), path + "[]", out);
    } else if (!(from instanceof PrimitiveType p && to instanceof PrimitiveType q
        && WIDENS_TO.getOrDefault(p, Set.of()).contains(q))) {
      out.add(path + " changed type from " + from.typeName() + " to " + to.typeName());
    }
  }

  /** A row of {@code from} as a row of {@code to} (compatible by {@link #incompatibilities}). */
  static Row project(Row row, StructType from, StructType to) {
    Object[] out = new Object[to.size()];
    for (int i = 0; i < out.length; i++) {
      StructField f = to.field(i);
      int at = from.indexOf(f.name());
      out[i] = at < 0 ? null : convert(row.get(at), from.field(at).type(), f.type());
    }
    return Row.of(out);
  }

  private static Object convert(Object value, DataType from, DataType to) {
    if (value == null || from.equals(to)) {
      return value;
    }
    if (from instanceof StructType a && to instanceof StructType b) {
      return project((Row) value, a, b);
    }
    if (from instanceof ArrayType a && to instanceof ArrayType b) {
      return ((List<?>) value).stream().map(v -> convert(v, a.elementType(), b.elementType())).toList();
    }
    Number n = (Number) value;
    return switch ((PrimitiveType) to) {
      case SHORT -> n.shortValue();
      case INTEGER -> n.intValue();
      case LONG -> n.longValue();
      case DOUBLE -> n.doubleValue();
      default -> throw new IllegalStateException("No widening from " + from + " to " + to);
    };
  }
}
