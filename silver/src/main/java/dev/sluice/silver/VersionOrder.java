package dev.sluice.silver;

import java.util.Comparator;

/**
 * The one rule, for SCD 1 and SCD 2 alike, deciding which of two versions of a key wins: the greater
 * {@code sequence_by} value; on a tie, a delete beats an upsert, and otherwise the one that arrived last
 * (input order within a batch, later batches after earlier ones, so a batch's row beats the table's). Without
 * {@code sequence_by}, the last to arrive wins. Sequence values are never null here: rows with a null one are
 * quarantined before the MERGE.
 */
final class VersionOrder {
  @SuppressWarnings({"unchecked", "rawtypes"})
  static final Comparator<Object> SEQUENCE = (a, b) -> ((Comparable) a).compareTo(b);

  private VersionOrder() {}

  /** Whether {@code later} (arrived after {@code earlier}) wins over it. */
  static boolean laterWins(Change earlier, Change later) {
    int c = compare(earlier.sequence(), later.sequence());
    if (c != 0) {
      return c < 0;
    }
    return !(earlier.delete() && !later.delete());
  }

  /** Whether a change arriving now wins over a version the table (or a tombstone) already holds. */
  static boolean beats(Change change, Object knownSequence, boolean knownIsDelete) {
    return laterWins(new Change(null, null, knownSequence, knownIsDelete), change);
  }

  private static int compare(Object a, Object b) {
    return a == null || b == null ? 0 : SEQUENCE.compare(a, b);
  }
}
