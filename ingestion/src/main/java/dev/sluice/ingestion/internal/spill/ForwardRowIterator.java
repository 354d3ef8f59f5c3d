package dev.sluice.ingestion.internal.spill;

import dev.sluice.table.data.Row;
import java.util.ListIterator;

/**
 * A list iterator over a batch's rows that only reads forward (what {@code subList(..).iterator()} and a pass need):
 * a batch is immutable, and a spilled one can't step back.
 */
abstract class ForwardRowIterator implements ListIterator<Row> {
  @Override
  public boolean hasPrevious() {
    return nextIndex() > 0;
  }

  @Override
  public Row previous() {
    throw new UnsupportedOperationException("A batch's rows are read forward only");
  }

  @Override
  public int previousIndex() {
    return nextIndex() - 1;
  }

  @Override
  public void remove() {
    throw new UnsupportedOperationException("A batch is immutable");
  }

  @Override
  public void set(Row row) {
    throw new UnsupportedOperationException("A batch is immutable");
  }

  @Override
  public void add(Row row) {
    throw new UnsupportedOperationException("A batch is immutable");
  }
}
