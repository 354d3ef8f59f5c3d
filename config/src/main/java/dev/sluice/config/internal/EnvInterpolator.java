package dev.sluice.config.internal;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces {@code ${env:NAME}} and {@code ${env:NAME:-default}} in string values; {@code $${} writes a literal
 * {@code ${}. As in a shell, the default also applies when the variable is set but empty.
 */
final class EnvInterpolator {
  private static final Pattern REFERENCE = Pattern.compile("env:([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?",
      Pattern.DOTALL);
  private static final Pattern SOLE_REFERENCE = Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");

  private final Map<String, String> env;

  EnvInterpolator(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /** The text with every reference replaced, or null when one cannot be (the problem is recorded). */
  String resolve(String text, String path, Problems problems) {
    if (text.indexOf('$') < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      if (text.startsWith("$${", i)) {
        out.append("${");
        i += 3;
      } else if (text.startsWith("${", i)) {
        int end = text.indexOf('}', i);
        if (end < 0) {
          problems.add(path, "`${` is not closed in `" + text + "`",
              "write ${env:NAME} or ${env:NAME:-default}; write $${ for a literal ${");
          return null;
        }
        String value = lookUp(text.substring(i + 2, end), path, problems);
        if (value == null) {
          return null;
        }
        out.append(value);
        i = end + 1;
      } else {
        out.append(text.charAt(i++));
      }
    }
    return out.toString();
  }

  private String lookUp(String reference, String path, Problems problems) {
    Matcher m = REFERENCE.matcher(reference);
    if (!m.matches()) {
      problems.add(path, "cannot interpolate `${" + reference + "}`: only ${env:NAME} and ${env:NAME:-default}"
          + " are supported", "write $${ for a literal ${");
      return null;
    }
    String name = m.group(1);
    String value = env.get(name);
    String fallback = m.group(2);
    if (fallback != null && (value == null || value.isEmpty())) {
      return fallback;
    }
    if (value == null) {
      problems.add(path, "environment variable " + name + " is not set",
          "set " + name + ", or give a default: ${env:" + name + ":-value}");
    }
    return value;
  }

  /** The variable name when the raw text is exactly one {@code ${env:NAME}} with no default. */
  static Optional<String> soleReference(String raw) {
    Matcher m = SOLE_REFERENCE.matcher(raw.strip());
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }
}
