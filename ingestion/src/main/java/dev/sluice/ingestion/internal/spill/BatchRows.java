package dev.sluice.ingestion.internal.spill;

import dev.sluice.ingestion.Batch;
import dev.sluice.table.data.Row;
import java.util.Iterator;
import java.util.List;

/**
 * Marks the immutable row lists a {@link RowBuffer} builds, which a {@link dev.sluice.ingestion.Batch} takes
 * without copying (copying a spilled list would read it all into the heap).
 */
public interface BatchRows extends List<Row> {
  /** Whether the rows live in a spill file (iterating reads it; {@code get(i)} seeks in it). */
  boolean spilled();

  /**
   * The rows in order, of which only the columns set in {@code wanted} are sure to hold their values (the others may
   * read null): a spilled list decodes only those.
   */
  default Iterator<Row> iterator(boolean[] wanted) {
    return iterator();
  }

  /**
   * Visits the non-null values of timestamp column {@code column} as {@link Batch#forEachTimestamp} does, where these
   * rows hold them as primitives; false (nothing visited) where they don't.
   */
  default boolean forEachTimestamp(int column, Batch.MicrosVisitor visitor) {
    return false;
  }

  /**
   * Visits the rows with a null in one of {@code columns} as {@link Batch#forEachRowWithNullIn} does, where these rows
   * keep null bits per column; false (nothing visited) where they don't.
   */
  default boolean forEachRowWithNullIn(int[] columns, java.util.function.IntConsumer visitor) {
    return false;
  }
}
