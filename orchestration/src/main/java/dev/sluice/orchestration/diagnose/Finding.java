package dev.sluice.orchestration.diagnose;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One check's outcome: which check ({@code fingerprint}, {@code lease}, {@code pending}, {@code source},
 * {@code table}, {@code state}), what it is about (a table or operator, or empty), how bad, a sentence for
 * people and the figures behind it for scripts.
 */
public record Finding(String check, String subject, Severity severity, String message, Map<String, Object> facts) {
  public Finding {
    Objects.requireNonNull(check, "check");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(message, "message");
    facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
  }

  static Finding of(String check, String subject, Severity severity, String message) {
    return new Finding(check, subject, severity, message, Map.of());
  }
}
