package dev.sluice.table.expressions;

import dev.sluice.table.internal.expressions.Binder;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An immutable boolean expression over a table's top-level columns, e.g. {@code status = 'open' AND
 * amount > 10}. Build one with the static factories ({@link #eq}, {@link #and}, {@link #in}, ...),
 * then {@link #bind} it to a schema to evaluate rows. {@link #toString()} renders SQL-like text.
 *
 * <p>Literals are {@link String}, {@link Boolean}, any {@link Number} (byte, short, integer, long,
 * float, double, {@link BigDecimal}, {@link BigInteger}), {@link LocalDate}, {@link Instant} or
 * {@code byte[]}. A null literal is refused: {@code x = NULL} is never true in SQL, so
 * {@link #isNull} is almost always what was meant.
 */
public sealed interface Predicate
    permits Predicate.Comparison,
        Predicate.ColumnComparison,
        Predicate.IsNull,
        Predicate.IsNotNull,
        Predicate.In,
        Predicate.And,
        Predicate.Or,
        Predicate.Not,
        Predicate.Constant {

  /** {@code column op literal}. */
  record Comparison(String column, CompareOp op, Object literal) implements Predicate {
    public Comparison {
      requireColumn(column);
      Objects.requireNonNull(op, "op");
      literal = requireLiteral(literal, column);
    }

    @Override
    public String toString() {
      return PredicateSql.render(this);
    }
  }

  /** {@code left op right} between two columns. */
  record ColumnComparison(String left, CompareOp op, String right) implements Predicate {
    public ColumnComparison {
      requireColumn(left);
      requireColumn(right);
      Objects.requireNonNull(op, "op");
    }

    @Override
    public String toString() {
      return PredicateSql.render(this);
    }
  }

  /** {@code column IS NULL}. */
  record IsNull(String column) implements Predicate {
    public IsNull {
      requireColumn(column);
    }

    @Override
    public String toString() {
      return PredicateSql.render(this);
    }
  }

  /** {@code column IS NOT NULL}. */
  record IsNotNull(String column) implements Predicate {
    public IsNotNull {
      requireColumn(column);
    }

    @Override
    public String toString() {
      return PredicateSql.render(this);
    }
  }

  /** {@code column IN (v1, v2, ...)}; an empty list matches no row. */
  record In(String column, List<Object> values) implements Predicate {
    public In {
      requireColumn(column);
      List<Object> copy = new ArrayList<>(values.size());
      for (Object v : values) {
        copy.add(requireLiteral(v, column));
      }
      values = List.copyOf(copy);
    }

    @Override
    public String toString() {
      return PredicateSql.render(this);
    }
  }

  /** {@code left AND right}. */
  record And(Predicate left, Predicate right) implements Predicate {
    public And {
      Objects.requireNonNull(left, "left");
      Objects.requireNonNull(right, "right");
    }

    @Override
    public String toString() {
      return PredicateSql.render(this);
    }
  }

  /** {@code left OR right}. */
  record Or(Predicate left, Predicate right) implements Predicate {
    public Or {
      Objects.requireNonNull(left, "left");
      Objects.requireNonNull(right, "right");
    }

    @Override
    public String toString() {
      return PredicateSql.render(this);
    }
  }

  /** {@code NOT child}. */
  record Not(Predicate child) implements Predicate {
    public Not {
      Objects.requireNonNull(child, "child");
    }

    @Override
    public String toString() {
      return PredicateSql.render(this);
    }
  }

  /** The constant {@code TRUE} or {@code FALSE}. */
  record Constant(boolean value) implements Predicate {
    @Override
    public String toString() {
      return PredicateSql.render(this);
    }
  }

  static Predicate eq(String column, Object value) {
    return new Comparison(column, CompareOp.EQ, value);
  }

  static Predicate ne(String column, Object value) {
    return new Comparison(column, CompareOp.NE, value);
  }

  static Predicate lt(String column, Object value) {
    return new Comparison(column, CompareOp.LT, value);
  }

  static Predicate le(String column, Object value) {
    return new Comparison(column, CompareOp.LE, value);
  }

  static Predicate gt(String column, Object value) {
    return new Comparison(column, CompareOp.GT, value);
  }

  static Predicate ge(String column, Object value) {
    return new Comparison(column, CompareOp.GE, value);
  }

  static Predicate compare(String column, CompareOp op, Object value) {
    return new Comparison(column, op, value);
  }

  static Predicate compareColumns(String left, CompareOp op, String right) {
    return new ColumnComparison(left, op, right);
  }

  static Predicate isNull(String column) {
    return new IsNull(column);
  }

  static Predicate isNotNull(String column) {
    return new IsNotNull(column);
  }

  static Predicate in(String column, Collection<?> values) {
    return new In(column, new ArrayList<>(values));
  }

  /** All of {@code predicates}; {@link #alwaysTrue()} when there are none. */
  static Predicate and(Predicate... predicates) {
    return and(Arrays.asList(predicates));
  }

  /** All of {@code predicates}; {@link #alwaysTrue()} when there are none. */
  static Predicate and(List<Predicate> predicates) {
    Predicate result = null;
    for (Predicate p : predicates) {
      result = result == null ? Objects.requireNonNull(p, "predicate") : new And(result, p);
    }
    return result == null ? alwaysTrue() : result;
  }

  /** Any of {@code predicates}; {@link #alwaysFalse()} when there are none. */
  static Predicate or(Predicate... predicates) {
    return or(Arrays.asList(predicates));
  }

  /** Any of {@code predicates}; {@link #alwaysFalse()} when there are none. */
  static Predicate or(List<Predicate> predicates) {
    Predicate result = null;
    for (Predicate p : predicates) {
      result = result == null ? Objects.requireNonNull(p, "predicate") : new Or(result, p);
    }
    return result == null ? alwaysFalse() : result;
  }

  static Predicate not(Predicate predicate) {
    return new Not(predicate);
  }

  static Predicate alwaysTrue() {
    return new Constant(true);
  }

  static Predicate alwaysFalse() {
    return new Constant(false);
  }

  /** The column names this predicate reads, in order of first appearance, spelled as given. */
  default Set<String> referencedColumns() {
    Set<String> out = new LinkedHashSet<>();
    PredicateSql.collectColumns(this, out);
    return out;
  }

  /**
   * Whether every column this predicate reads is one of {@code columns} (ignoring case, as Delta
   * does); e.g. a partition-only predicate, as an overwrite or metadata-only delete requires.
   */
  default boolean referencesOnly(Collection<String> columns) {
    return columnsOutside(columns).isEmpty();
  }

  /** The referenced columns that are not in {@code columns} (ignoring case). */
  default Set<String> columnsOutside(Collection<String> columns) {
    Set<String> allowed =
        columns.stream().map(c -> c.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
    Set<String> outside = new LinkedHashSet<>();
    for (String c : referencedColumns()) {
      if (!allowed.contains(c.toLowerCase(Locale.ROOT))) {
        outside.add(c);
      }
    }
    return outside;
  }

  /**
   * Resolves columns against {@code schema} and converts literals to the columns' types.
   *
   * @throws IllegalArgumentException if a column does not exist (the message lists the known
   *     columns), or a literal cannot be compared with its column's type (the message names both)
   */
  default BoundPredicate bind(StructType schema) {
    return Binder.bind(this, schema);
  }

  /** SQL-like text, e.g. {@code status = 'open' AND amount > 10}. */
  @Override
  String toString();

  private static void requireColumn(String column) {
    if (column == null || column.isEmpty()) {
      throw new IllegalArgumentException("A predicate needs a column name, but got " + (column == null ? "null" : "''"));
    }
  }

  private static Object requireLiteral(Object literal, String column) {
    if (literal == null) {
      throw new IllegalArgumentException(
          "The literal compared with column '" + column + "' is null; a comparison with NULL is never true "
              + "in SQL. Use Predicate.isNull(\"" + column + "\") or isNotNull instead.");
    }
    if (literal instanceof byte[] bytes) {
      return bytes.clone();
    }
    if (literal instanceof String || literal instanceof Boolean || literal instanceof LocalDate
        || literal instanceof Instant || literal instanceof Byte || literal instanceof Short
        || literal instanceof Integer || literal instanceof Long || literal instanceof Float
        || literal instanceof Double || literal instanceof BigDecimal || literal instanceof BigInteger) {
      return literal;
    }
    throw new IllegalArgumentException(
        "The literal " + literal + " compared with column '" + column + "' has type " + literal.getClass().getName()
            + ", which predicates do not support. Use String, Boolean, a Number, LocalDate, Instant or byte[].");
  }
}
