package dev.sluice.config.internal;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** Finds the valid word a mistyped one was meant to be (edit distance, ignoring case and {@code _}). */
final class Suggestions {
  private Suggestions() {}

  static Optional<String> closest(String word, Collection<String> candidates) {
    String typed = normalise(word);
    if (typed.length() < 3) {
      return Optional.empty(); // one or two characters are close to everything
    }
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      String known = normalise(candidate);
      // An abbreviation (`int` for `integer`, `partition` for `partition_by`) is as good as a one-letter typo.
      int d = known.startsWith(typed) ? Math.min(1, distance(typed, known)) : distance(typed, known);
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    // Beyond about a third of the word a "suggestion" is a guess that misleads more than it helps.
    int limit = Math.max(2, typed.length() / 3);
    return bestDistance <= limit ? Optional.ofNullable(best) : Optional.empty();
  }

  /** " (did you mean `x`?)" or "". */
  static String didYouMean(String word, Collection<String> candidates) {
    return closest(word, candidates).map(s -> "did you mean `" + s + "`? ").orElse("");
  }

  private static String normalise(String word) {
    return word.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
  }

  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
