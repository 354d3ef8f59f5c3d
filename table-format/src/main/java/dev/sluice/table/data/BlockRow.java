package dev.sluice.table.data;

/**
 * Row {@code index} of a block of rows made column by column: its values are {@code block[column][index]} (a column
 * not made is null throughout). A pass that makes a block's values a column at a time, in a tight loop per column,
 * hands out such views instead of an array per row. Equal, as rows are, to any row of the same values.
 */
public final class BlockRow extends AbstractRow {
  private final Object[][] block;
  private final int index;

  public BlockRow(Object[][] block, int index) {
    this.block = block;
    this.index = index;
  }

  @Override
  public int size() {
    return block.length;
  }

  @Override
  public Object get(int ordinal) {
    Object[] column = block[ordinal];
    return column == null ? null : column[index];
  }
}
