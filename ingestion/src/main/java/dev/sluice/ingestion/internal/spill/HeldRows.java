package dev.sluice.ingestion.internal.spill;

import dev.sluice.table.data.Row;
import java.util.AbstractList;
import java.util.RandomAccess;

/** The rows of a buffer that stayed within its budget: an immutable view of the array they were collected in. */
final class HeldRows extends AbstractList<Row> implements BatchRows, RandomAccess {
  private final Row[] rows;
  private final int size;

  HeldRows(Row[] rows, int size) {
    this.rows = rows;
    this.size = size;
  }

  @Override
  public Row get(int index) {
    java.util.Objects.checkIndex(index, size);
    return rows[index];
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean spilled() {
    return false;
  }
}
