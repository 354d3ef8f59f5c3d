package dev.sluice.ingestion.source.internal;

import dev.sluice.ingestion.source.SourceContext;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Typed, validated access to a source's options; every refusal names the format, the option and the fix. */
public final class SourceOptions {
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d|w)?", Pattern.CASE_INSENSITIVE);

  private final String format;
  private final SourceContext context;

  private SourceOptions(String format, SourceContext context) {
    this.format = format;
    this.context = context;
  }

  /**
   * The options of {@code context}, after checking every key is one of {@code accepted} (lower case).
   *
   * @throws IllegalArgumentException naming the unknown key and listing the accepted ones
   */
  public static SourceOptions check(String format, SourceContext context, Set<String> accepted) {
    for (String key : context.options().keySet()) {
      if (!accepted.contains(key.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("Unknown option '" + key + "' for source format '" + format
            + "': accepted options are " + new TreeSet<>(accepted) + "; remove it or correct its spelling");
      }
    }
    return new SourceOptions(format, context);
  }

  public Optional<String> string(String key) {
    return context.option(key);
  }

  public String string(String key, String defaultValue) {
    return string(key).orElse(defaultValue);
  }

  /** A whole number {@code >= min}. */
  public Optional<Long> longValue(String key, long min) {
    return string(key).map(v -> {
      try {
        long n = Long.parseLong(v.trim());
        if (n >= min) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw invalid(key, v, "a whole number >= " + min);
    });
  }

  public boolean bool(String key, boolean defaultValue) {
    return string(key).map(v -> {
      if (v.trim().equalsIgnoreCase("true")) {
        return true;
      }
      if (v.trim().equalsIgnoreCase("false")) {
        return false;
      }
      throw invalid(key, v, "true or false");
    }).orElse(defaultValue);
  }

  /** A duration such as {@code 7d}, {@code 12h}, {@code 30m}, {@code 10s}, {@code 500ms}; a bare number is milliseconds. */
  public Duration duration(String key, Duration defaultValue) {
    return string(key).map(v -> {
      Matcher m = DURATION.matcher(v.trim());
      if (!m.matches()) {
        throw invalid(key, v, "a duration such as 7d, 12h, 30m, 10s or 500ms");
      }
      long n = Long.parseLong(m.group(1));
      String unit = m.group(2) == null ? "ms" : m.group(2).toLowerCase(Locale.ROOT);
      return switch (unit) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        case "d" -> Duration.ofDays(n);
        default -> Duration.ofDays(7 * n);
      };
    }).orElse(defaultValue);
  }

  /** One of {@code allowed} (compared ignoring case), returned in lower case. */
  public String choice(String key, String defaultValue, Set<String> allowed) {
    String v = string(key, defaultValue).trim().toLowerCase(Locale.ROOT);
    if (!allowed.contains(v)) {
      throw invalid(key, string(key, defaultValue), "one of " + new TreeSet<>(allowed));
    }
    return v;
  }

  /** A single character; {@code \t} stands for a tab. */
  public Optional<Character> character(String key) {
    return string(key).map(v -> {
      String s = v.equals("\\t") ? "\t" : v;
      if (s.length() != 1) {
        throw invalid(key, v, "a single character");
      }
      return s.charAt(0);
    });
  }

  /** A bad option value, as the exception to throw. */
  public IllegalArgumentException invalid(String key, String value, String expected) {
    return new IllegalArgumentException("Option '" + key + "' of source format '" + format + "' is '" + value
        + "', but it must be " + expected + "; fix the option's value");
  }
}
