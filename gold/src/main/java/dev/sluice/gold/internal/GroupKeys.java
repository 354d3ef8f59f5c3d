package dev.sluice.gold.internal;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Base64;

/**
 * Renders a group's {@code _group_key}: a JSON array of the window start (when windowed) and the group
 * values. Gold tables are MERGEd by these texts, so they must stay byte-identical to what Jackson's
 * {@code ObjectMapper.writeValueAsString(List)} wrote for the same parts (the first versions did that,
 * at a quarter of gold's CPU): strings escaped by Jackson's own encoder, integers and finite floats as
 * {@code toString}, NaN and infinities quoted (Jackson's default), decimals as plain text without
 * trailing zeros and bytes as Base64 (both quoted), null and booleans as literals, anything else
 * (dates, timestamps, lists, maps, structs) as its quoted {@code toString}.
 */
final class GroupKeys {
  private static final JsonStringEncoder ENCODER = JsonStringEncoder.getInstance();

  private GroupKeys() {}

  /**
   * The key of the group of {@code values} in the window starting at {@code windowStart} (as
   * {@code Instant.toString} writes it; null without a window).
   */
  static String render(String windowStart, Object[] values) {
    StringBuilder out = new StringBuilder(16 + 16 * values.length);
    out.append('[');
    boolean first = true;
    if (windowStart != null) {
      string(out, windowStart);
      first = false;
    }
    for (Object v : values) {
      if (!first) {
        out.append(',');
      }
      first = false;
      value(out, v);
    }
    return out.append(']').toString();
  }

  private static void value(StringBuilder out, Object v) {
    if (v == null) {
      out.append("null");
    } else if (v instanceof String s) {
      string(out, s);
    } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
        || v instanceof BigInteger || v instanceof Boolean) {
      out.append(v);
    } else if (v instanceof Double d) {
      number(out, Double.isFinite(d), Double.toString(d));
    } else if (v instanceof Float f) {
      number(out, Float.isFinite(f), Float.toString(f));
    } else if (v instanceof BigDecimal d) {
      string(out, d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString());
    } else if (v instanceof byte[] b) {
      string(out, Base64.getEncoder().encodeToString(b));
    } else {
      string(out, v.toString());
    }
  }

  private static void number(StringBuilder out, boolean finite, String text) {
    if (finite) {
      out.append(text);
    } else {
      string(out, text);
    }
  }

  private static void string(StringBuilder out, String s) {
    out.append('"');
    ENCODER.quoteAsString(s, out);
    out.append('"');
  }
}
