package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import java.util.regex.Pattern;

/**
 * {@code value [NOT] LIKE pattern [ESCAPE c]}: {@code %} any run of characters, {@code _} one
 * character. A literal pattern is compiled once; a pattern from a column is compiled per row.
 */
final class LikeNode extends Node {
  private final Node value;
  private final Node pattern;
  private final Pattern compiled;
  private final char escape;
  private final boolean negated;

  LikeNode(Node value, Node pattern, char escape, boolean negated) {
    super(PrimitiveType.BOOLEAN, value.nullable || pattern.nullable);
    this.value = value;
    this.pattern = pattern;
    this.escape = escape;
    this.negated = negated;
    this.compiled = pattern instanceof LiteralNode lit && lit.value() != null
        ? toRegex((String) lit.value(), escape) : null;
  }

  @Override
  Object eval(Row row, EvalContext context) {
    Object v = value.eval(row, context);
    if (v == null) {
      return null;
    }
    Pattern p = compiled;
    if (p == null) {
      Object text = pattern.eval(row, context);
      if (text == null) {
        return null;
      }
      p = toRegex((String) text, escape);
    }
    return p.matcher((String) v).matches() != negated;
  }

  static Pattern toRegex(String like, char escape) {
    StringBuilder regex = new StringBuilder(like.length() + 8);
    for (int i = 0; i < like.length(); i++) {
      char c = like.charAt(i);
      if (c == escape && i + 1 < like.length()) {
        regex.append(Pattern.quote(String.valueOf(like.charAt(++i))));
      } else if (c == '%') {
        regex.append(".*");
      } else if (c == '_') {
        regex.append('.');
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }
}
