package dev.sluice.ingestion.internal.plan.join;

import dev.sluice.table.data.AbstractRow;
import dev.sluice.table.data.Row;

/**
 * A stream row followed by the static row it matched (or, for a left row without match, nulls), read
 * through both: the join copies no values. Rows are immutable, so the view stays valid; it compares by
 * value like a {@code GenericRow}.
 */
final class JoinedRow extends AbstractRow {
  private final Row left;
  private final Row right;
  private final int leftWidth;
  private final int width;

  JoinedRow(Row left, Row right, int leftWidth, int rightWidth) {
    this.left = left;
    this.right = right;
    this.leftWidth = leftWidth;
    this.width = leftWidth + rightWidth;
  }

  @Override
  public int size() {
    return width;
  }

  @Override
  public Object get(int ordinal) {
    if (ordinal < leftWidth) {
      return left.get(ordinal);
    }
    if (ordinal >= width) {
      throw new IndexOutOfBoundsException("Column " + ordinal + " of a joined row of " + width + " columns");
    }
    return right == null ? null : right.get(ordinal - leftWidth);
  }
}
