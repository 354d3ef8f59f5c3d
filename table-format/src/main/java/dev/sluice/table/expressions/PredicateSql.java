package dev.sluice.table.expressions;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Renders predicates as SQL-like text for {@code commitInfo.operationParameters.predicate} and error
 * messages. Mixed AND/OR nesting is always parenthesised so the text reads unambiguously.
 */
final class PredicateSql {
  private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private PredicateSql() {}

  static String render(Predicate p) {
    if (p instanceof Predicate.Comparison c) {
      return column(c.column()) + " " + c.op().sql() + " " + literal(c.literal());
    }
    if (p instanceof Predicate.ColumnComparison c) {
      return column(c.left()) + " " + c.op().sql() + " " + column(c.right());
    }
    if (p instanceof Predicate.IsNull n) {
      return column(n.column()) + " IS NULL";
    }
    if (p instanceof Predicate.IsNotNull n) {
      return column(n.column()) + " IS NOT NULL";
    }
    if (p instanceof Predicate.In in) {
      return column(in.column()) + " IN "
          + in.values().stream().map(PredicateSql::literal).collect(Collectors.joining(", ", "(", ")"));
    }
    if (p instanceof Predicate.And and) {
      return operand(and.left(), Predicate.And.class) + " AND " + operand(and.right(), Predicate.And.class);
    }
    if (p instanceof Predicate.Or or) {
      return operand(or.left(), Predicate.Or.class) + " OR " + operand(or.right(), Predicate.Or.class);
    }
    if (p instanceof Predicate.Not not) {
      return "NOT (" + render(not.child()) + ")";
    }
    return ((Predicate.Constant) p).value() ? "TRUE" : "FALSE";
  }

  static void collectColumns(Predicate p, Set<String> out) {
    if (p instanceof Predicate.Comparison c) {
      out.add(c.column());
    } else if (p instanceof Predicate.ColumnComparison c) {
      out.add(c.left());
      out.add(c.right());
    } else if (p instanceof Predicate.IsNull n) {
      out.add(n.column());
    } else if (p instanceof Predicate.IsNotNull n) {
      out.add(n.column());
    } else if (p instanceof Predicate.In in) {
      out.add(in.column());
    } else if (p instanceof Predicate.And and) {
      collectColumns(and.left(), out);
      collectColumns(and.right(), out);
    } else if (p instanceof Predicate.Or or) {
      collectColumns(or.left(), out);
      collectColumns(or.right(), out);
    } else if (p instanceof Predicate.Not not) {
      collectColumns(not.child(), out);
    }
  }

  private static String operand(Predicate child, Class<?> parent) {
    boolean logical = child instanceof Predicate.And || child instanceof Predicate.Or;
    return logical && !parent.isInstance(child) ? "(" + render(child) + ")" : render(child);
  }

  static String column(String name) {
    return PLAIN_NAME.matcher(name).matches() ? name : "`" + name.replace("`", "``") + "`";
  }

  static String literal(Object value) {
    if (value instanceof String s) {
      return "'" + s.replace("'", "''") + "'";
    }
    if (value instanceof Boolean b) {
      return b ? "TRUE" : "FALSE";
    }
    if (value instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (value instanceof LocalDate d) {
      return "DATE '" + d + "'";
    }
    if (value instanceof Instant t) {
      return "TIMESTAMP '" + t + "'";
    }
    if (value instanceof byte[] bytes) {
      return "X'" + HexFormat.of().withUpperCase().formatHex(bytes) + "'";
    }
    return String.valueOf(value);
  }
}
