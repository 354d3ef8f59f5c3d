package dev.sluice.ingestion.state.internal;

import java.util.OptionalLong;

/**
 * Names of the files in a state partition folder. Example: {@code 12.delta} (the changes made by
 * version 12), {@code 20.snapshot} (the whole state at version 20).
 */
final class StateFileNames {
  static final String DELTA = ".delta";
  static final String SNAPSHOT = ".snapshot";

  private StateFileNames() {}

  static String delta(long version) {
    return version + DELTA;
  }

  static String snapshot(long version) {
    return version + SNAPSHOT;
  }

  /** The version of a delta or snapshot file name with the given suffix; empty for any other name. */
  static OptionalLong versionOf(String name, String suffix) {
    if (!name.endsWith(suffix) || name.length() == suffix.length()) {
      return OptionalLong.empty();
    }
    String digits = name.substring(0, name.length() - suffix.length());
    for (int i = 0; i < digits.length(); i++) {
      if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
        return OptionalLong.empty();
      }
    }
    try {
      return OptionalLong.of(Long.parseLong(digits));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
