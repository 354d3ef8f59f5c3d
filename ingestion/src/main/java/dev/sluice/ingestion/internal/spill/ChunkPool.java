package dev.sluice.ingestion.internal.spill;

import java.util.ArrayDeque;

/**
 * The arrays {@link ColumnVector}s keep their values in, handed out again once a batch has ended
 * ({@link BatchScope}). A batch's columns live for the whole batch, longer than a young collection: fresh arrays
 * were copied into the survivor spaces, overflowed them and pushed everything else there into the old generation
 * (GC pauses doubled on the 2 M-event medallion). Arrays taken again are already in the old generation, where a
 * young collection never copies or scans them (they hold no references). The pool keeps at most
 * {@link SpillOptions#budgetBytes()} of arrays; chunks are not cleared between batches (a column writes a row before
 * it reads it).
 */
final class ChunkPool {
  /** Rows per chunk of fixed-width values. */
  static final int ROWS = 1 << 14;
  static final int ROW_SHIFT = 14;
  /** Bytes per chunk of string and binary values. */
  static final int BYTES = 1 << 18;
  static final int BYTE_SHIFT = 18;

  private static final ArrayDeque<long[]> LONGS = new ArrayDeque<>();
  private static final ArrayDeque<int[]> INTS = new ArrayDeque<>();
  private static final ArrayDeque<byte[]> DATA = new ArrayDeque<>();
  private static long pooled;

  private ChunkPool() {}

  static synchronized long[] longs() {
    long[] c = LONGS.poll();
    if (c == null) {
      return new long[ROWS];
    }
    pooled -= 8L * ROWS;
    return c;
  }

  static synchronized int[] ints() {
    int[] c = INTS.poll();
    if (c == null) {
      return new int[ROWS];
    }
    pooled -= 4L * ROWS;
    return c;
  }

  static synchronized byte[] bytes() {
    byte[] c = DATA.poll();
    if (c == null) {
      return new byte[BYTES];
    }
    pooled -= BYTES;
    return c;
  }

  static synchronized void give(long[] c) {
    if (c.length == ROWS && pooled + 8L * ROWS <= SpillOptions.budgetBytes()) {
      LONGS.push(c);
      pooled += 8L * ROWS;
    }
  }

  static synchronized void give(int[] c) {
    if (c.length == ROWS && pooled + 4L * ROWS <= SpillOptions.budgetBytes()) {
      INTS.push(c);
      pooled += 4L * ROWS;
    }
  }

  /** Takes back a data chunk; a value's own larger array (one over {@link #BYTES}) is left to the collector. */
  static synchronized void give(byte[] c) {
    if (c.length == BYTES && pooled + BYTES <= SpillOptions.budgetBytes()) {
      DATA.push(c);
      pooled += BYTES;
    }
  }
}
