package dev.sluice.table.data;

/**
 * Some columns of a row, in a given order, as a row of their own, without copying them: a dedup key or a row
 * read in another column order costs one small object instead of an {@code Object[]} and a row per input row.
 * Compares by value like a {@code GenericRow}, so stores that keep rows work with it too.
 */
public final class ProjectedRow extends AbstractRow {
  private final Row row;
  private final int[] ordinals;

  /** Column {@code i} of the view is column {@code ordinals[i]} of {@code row} (the array is not copied). */
  public ProjectedRow(Row row, int[] ordinals) {
    this.row = row;
    this.ordinals = ordinals;
  }

  @Override
  public int size() {
    return ordinals.length;
  }

  @Override
  public Object get(int ordinal) {
    return row.get(ordinals[ordinal]);
  }
}
