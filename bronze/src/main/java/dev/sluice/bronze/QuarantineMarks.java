package dev.sluice.bronze;

import java.util.BitSet;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Hands the positions of a batch's quarantined rows from the {@link LineageStep}, which passes over every row to
 * count them, to the {@link BronzeWriter}, which would otherwise pass over every row again to find them: on a
 * batch too large for the CPU caches each pass costs a tenth of bronze's time. The writer takes the marks only
 * for its own batch id and size and looks for itself when there are none.
 */
final class QuarantineMarks {
  private record Marks(long batchId, int size, BitSet positions) {}

  private final AtomicReference<Marks> last = new AtomicReference<>();

  /** The positions in the step's output batch {@code batchId} of {@code size} rows whose row is quarantined. */
  void mark(long batchId, int size, BitSet positions) {
    last.set(new Marks(batchId, size, positions));
  }

  /** The marked positions for that batch, or null when the step marked another one (or none). */
  BitSet take(long batchId, int size) {
    Marks m = last.getAndSet(null);
    return m != null && m.batchId() == batchId && m.size() == size ? m.positions() : null;
  }
}
