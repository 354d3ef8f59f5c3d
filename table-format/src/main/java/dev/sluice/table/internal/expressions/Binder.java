package dev.sluice.table.internal.expressions;

import dev.sluice.table.expressions.BoundPredicate;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves a {@link Predicate}'s columns in a schema (exact name first, then ignoring case, as
 * {@link StructType#indexOf} does) and brings each literal into its column's value domain.
 *
 * <p>Literal rules: any number compares with any numeric column by value (a literal for a float
 * column is rounded to float first, so {@code f = 0.1} finds the float 0.1); a string literal is
 * parsed for numeric, boolean, date, timestamp and binary columns (timestamps as in {@link
 * ValueText#parseTimestamp}); a {@link LocalDate} compares with a timestamp column as midnight UTC.
 * Anything else is an error naming both types.
 */
public final class Binder {
  private Binder() {}

  /** See {@link Predicate#bind}. */
  public static BoundPredicate bind(Predicate predicate, StructType schema) {
    Predicate canonical = canonical(predicate, schema, predicate);
    return new BoundPredicateImpl(schema, canonical, toNode(canonical, schema));
  }

  /** The evaluation tree of {@code bound}, in negation normal form. */
  public static Node root(BoundPredicate bound) {
    if (bound instanceof BoundPredicateImpl impl) {
      return impl.root();
    }
    return toNode(bound.predicate(), bound.schema());
  }

  private static Predicate canonical(Predicate p, StructType schema, Predicate whole) {
    if (p instanceof Predicate.Comparison c) {
      StructField f = field(c.column(), schema, whole);
      return Predicate.compare(f.name(), c.op(), coerce(c.literal(), f, whole));
    }
    if (p instanceof Predicate.ColumnComparison c) {
      StructField left = field(c.left(), schema, whole);
      StructField right = field(c.right(), schema, whole);
      requireComparable(left, right, whole);
      return Predicate.compareColumns(left.name(), c.op(), right.name());
    }
    if (p instanceof Predicate.IsNull n) {
      return Predicate.isNull(field(n.column(), schema, whole).name());
    }
    if (p instanceof Predicate.IsNotNull n) {
      return Predicate.isNotNull(field(n.column(), schema, whole).name());
    }
    if (p instanceof Predicate.In in) {
      StructField f = field(in.column(), schema, whole);
      List<Object> values = new ArrayList<>();
      for (Object v : in.values()) {
        values.add(coerce(v, f, whole));
      }
      return Predicate.in(f.name(), values);
    }
    if (p instanceof Predicate.And and) {
      return Predicate.and(canonical(and.left(), schema, whole), canonical(and.right(), schema, whole));
    }
    if (p instanceof Predicate.Or or) {
      return Predicate.or(canonical(or.left(), schema, whole), canonical(or.right(), schema, whole));
    }
    if (p instanceof Predicate.Not not) {
      return Predicate.not(canonical(not.child(), schema, whole));
    }
    return p;
  }

  /** Builds the NNF tree from a canonical predicate (columns exist, literals coerced). */
  private static Node toNode(Predicate p, StructType schema) {
    if (p instanceof Predicate.Comparison c) {
      return new Node.Compare(column(c.column(), schema), c.op(), c.literal());
    }
    if (p instanceof Predicate.ColumnComparison c) {
      return new Node.CompareColumns(column(c.left(), schema), c.op(), column(c.right(), schema));
    }
    if (p instanceof Predicate.IsNull n) {
      return new Node.IsNull(column(n.column(), schema));
    }
    if (p instanceof Predicate.IsNotNull n) {
      return new Node.IsNotNull(column(n.column(), schema));
    }
    if (p instanceof Predicate.In in) {
      return new Node.In(column(in.column(), schema), in.values(), false /* negated */);
    }
    if (p instanceof Predicate.And and) {
      return new Node.And(toNode(and.left(), schema), toNode(and.right(), schema));
    }
    if (p instanceof Predicate.Or or) {
      return new Node.Or(toNode(or.left(), schema), toNode(or.right(), schema));
    }
    if (p instanceof Predicate.Not not) {
      return toNode(not.child(), schema).negate();
    }
    return new Node.Constant(((Predicate.Constant) p).value());
  }

  private static Column column(String name, StructType schema) {
    int i = schema.indexOf(name);
    StructField f = schema.field(i);
    return new Column(f.name(), i, f.type());
  }

  private static StructField field(String name, StructType schema, Predicate whole) {
    int i = schema.indexOf(name);
    if (i < 0) {
      throw new IllegalArgumentException(
          "Column '" + name + "' in predicate `" + whole + "` does not exist in the table schema; known columns: "
              + schema.fieldNames() + ". Check the spelling (names match ignoring case).");
    }
    return schema.field(i);
  }

  private static void requireComparable(StructField left, StructField right, Predicate whole) {
    DataType a = left.type();
    DataType b = right.type();
    boolean ok = ValueOrder.isComparable(a) && ValueOrder.isComparable(b)
        && ((ValueOrder.isNumeric(a) && ValueOrder.isNumeric(b)) || a.equals(b));
    if (!ok) {
      throw new IllegalArgumentException(
          "Cannot compare column '" + left.name() + "' (" + a + ") with column '" + right.name() + "' (" + b
              + ") in predicate `" + whole + "`: only numbers with numbers, or columns of the same orderable type.");
    }
  }

  private static Object coerce(Object literal, StructField field, Predicate whole) {
    DataType type = field.type();
    if (!ValueOrder.isComparable(type)) {
      throw new IllegalArgumentException(
          "Column '" + field.name() + "' has type " + type + ", which predicate `" + whole
              + "` cannot compare with a literal; only IS NULL and IS NOT NULL work on it.");
    }
    Object value = convert(literal, type);
    if (value == null) {
      throw new IllegalArgumentException(
          "Cannot compare column '" + field.name() + "' (" + type + ") with the literal "
              + describe(literal) + " in predicate `" + whole + "`: the literal is not a " + type
              + " value. Use a literal of the column's type.");
    }
    return value;
  }

  /** The literal in {@code type}'s value domain, or null if it has no such value. */
  private static Object convert(Object literal, DataType type) {
    if (ValueOrder.isNumeric(type)) {
      Number n = literal instanceof String s ? parseNumber(s) : literal instanceof Number x ? x : null;
      if (n != null && type == PrimitiveType.FLOAT && !ValueOrder.isIntegral(n)) {
        return n.floatValue();
      }
      return n;
    }
    PrimitiveType p = (PrimitiveType) type;
    if (literal instanceof String s && p != PrimitiveType.STRING) {
      try {
        return ValueText.parse(s, p);
      } catch (IllegalArgumentException | java.time.DateTimeException e) {
        return null;
      }
    }
    return switch (p) {
      case STRING -> literal instanceof String ? literal : null;
      case BOOLEAN -> literal instanceof Boolean ? literal : null;
      case DATE -> literal instanceof LocalDate ? literal : null;
      case TIMESTAMP -> literal instanceof Instant ? literal
          : literal instanceof LocalDate d ? d.atStartOfDay(ZoneOffset.UTC).toInstant() : null;
      case BINARY -> literal instanceof byte[] ? literal : null;
      default -> null;
    };
  }

  private static Number parseNumber(String s) {
    String t = s.trim();
    try {
      BigDecimal d = new BigDecimal(t);
      if (d.scale() <= 0 && d.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0
          && d.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0) {
        return d.longValueExact();
      }
      return d.scale() <= 0 ? (Number) d.toBigIntegerExact() : d;
    } catch (NumberFormatException e) {
      try {
        double special = Double.parseDouble(t);
        return Double.isNaN(special) || Double.isInfinite(special) ? special : null;
      } catch (NumberFormatException again) {
        return null;
      }
    }
  }

  private static String describe(Object literal) {
    String text = literal instanceof String s ? "'" + s + "'" : literal instanceof byte[] b ? b.length + " bytes"
        : String.valueOf(literal);
    return text + " (" + literal.getClass().getSimpleName() + ")";
  }
}
