package dev.sluice.table;

import dev.sluice.table.exceptions.ConcurrentModificationException;
import java.util.function.Supplier;

/** The one retry rule of table operations: start again from a fresh snapshot after a conflicting concurrent commit. */
final class ConflictRetries {
  private ConflictRetries() {}

  /** Runs {@code attempt}, again after each conflict, at most {@code retries} more times. */
  static <T> T run(int retries, Supplier<T> attempt) {
    for (int i = 0; ; i++) {
      try {
        return attempt.get();
      } catch (ConcurrentModificationException e) {
        if (i >= retries) {
          throw e;
        }
      }
    }
  }
}
