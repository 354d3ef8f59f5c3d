package dev.sluice.gold.internal;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One measure of a gold aggregate as written in the config: {@code sum(amount * quantity) AS revenue}.
 * {@link #argument()} is the SQL expression inside the call, or null for {@code count(*)}.
 */
record Measure(Function function, String argument, String name) {
  private static final Pattern CALL = Pattern.compile(
      "(?is)^\\s*(count|sum|avg|min|max)\\s*\\((.+)\\)\\s*(?:AS\\s+)?(`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)?\\s*$");

  /** The aggregate functions of gold measures. */
  enum Function {
    COUNT, SUM, AVG, MIN, MAX;

    String sqlName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * @throws IllegalArgumentException naming the measure and the accepted form
   */
  static Measure parse(String text) {
    Matcher m = CALL.matcher(text);
    if (!m.matches()) {
      throw GoldErrors.badMeasure(text);
    }
    Function f = Function.valueOf(m.group(1).toUpperCase(Locale.ROOT));
    String arg = m.group(2).trim();
    if (arg.equals("*") || (f == Function.COUNT && arg.equals("1"))) {
      if (f != Function.COUNT) {
        throw GoldErrors.badMeasure(text);
      }
      arg = null;
    }
    String alias = m.group(3);
    String name = alias == null ? f.sqlName() + "(" + (arg == null ? "*" : arg) + ")" : alias.replace("`", "");
    return new Measure(f, arg, name);
  }

  /** The argument as a plain column name, or null when it is an expression (or {@code *}). */
  String plainColumn() {
    if (argument == null) {
      return null;
    }
    String a = argument.startsWith("`") && argument.endsWith("`") ? argument.substring(1, argument.length() - 1)
        : argument;
    return a.matches("[A-Za-z_][A-Za-z0-9_]*") || argument.startsWith("`") ? a : null;
  }
}
