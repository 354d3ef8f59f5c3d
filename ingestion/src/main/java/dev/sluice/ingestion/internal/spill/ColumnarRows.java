package dev.sluice.ingestion.internal.spill;

import dev.sluice.ingestion.Batch;
import dev.sluice.table.data.BlockRow;
import dev.sluice.table.data.DecodedRows;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.AbstractList;
import java.util.Iterator;
import java.util.ListIterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The rows of a batch held column by column in primitive arrays ({@link ColumnVector}): what a {@link RowBuffer}
 * keeps once its boxed rows outgrow the budget, before it spills. A 500,000-row silver batch of bronze orders takes
 * ~50 MB so, against ~175 MB as boxed rows; a spill file cost an encoding thread and a decoding on every pass. Each
 * read makes the row's objects afresh (a value equal to the row before's is handed out again); a pass of many rows
 * is made on the read-ahead thread. Immutable once built. Built inside a {@link BatchScope}, the rows end with it:
 * their chunks go back to the {@link ChunkPool}, and a read after that fails.
 */
final class ColumnarRows extends AbstractList<Row> implements BatchRows, RandomAccess {
  private final ColumnVector[] columns;
  private final int size;
  private volatile boolean released;

  private ColumnarRows(ColumnVector[] columns, int size) {
    this.columns = columns;
    this.size = size;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean spilled() {
    return false;
  }

  @Override
  public Row get(int index) {
    Objects.checkIndex(index, size);
    checkLive();
    Object[] values = new Object[columns.length];
    for (int c = 0; c < columns.length; c++) {
      columns[c].fill(values, c, index, 1);
    }
    checkLive();
    return Row.of(values);
  }

  @Override
  public Iterator<Row> iterator() {
    return iterator(null);
  }

  @Override
  public Iterator<Row> iterator(boolean[] wanted) {
    return pass(0, wanted);
  }

  @Override
  public boolean forEachTimestamp(int column, Batch.MicrosVisitor visitor) {
    return forEachTimestamp(column, null, visitor);
  }

  /** Of the rows set in {@code kept} (all when null), numbered among them. */
  boolean forEachTimestamp(int column, java.util.BitSet kept, Batch.MicrosVisitor visitor) {
    if (!(columns[column] instanceof ColumnVector.Fixed f) || !f.holdsTimestamps()) {
      return false;
    }
    checkLive();
    for (int row = firstRow(kept), at = 0; row >= 0; row = nextRow(kept, row), at++) {
      if (!f.isNull(row)) {
        visitor.visit(at, f.micros(row));
      }
    }
    checkLive();
    return true;
  }

  /** Where a walk over the rows set in {@code kept} (all when null) starts; -1 when there are none. */
  private int firstRow(java.util.BitSet kept) {
    return kept != null ? kept.nextSetBit(0) : size > 0 ? 0 : -1;
  }

  /** The walk's row after {@code row}, or -1. */
  private int nextRow(java.util.BitSet kept, int row) {
    return kept != null ? kept.nextSetBit(row + 1) : row + 1 < size ? row + 1 : -1;
  }

  @Override
  public boolean forEachRowWithNullIn(int[] columns, java.util.function.IntConsumer visitor) {
    return forEachRowWithNullIn(columns, null, visitor);
  }

  /** Of the rows set in {@code kept} (all when null), numbered among them. */
  boolean forEachRowWithNullIn(int[] wanted, java.util.BitSet kept, java.util.function.IntConsumer visitor) {
    ColumnVector[] checked = new ColumnVector[wanted.length];
    for (int i = 0; i < wanted.length; i++) {
      checked[i] = columns[wanted[i]];
    }
    checkLive();
    for (int row = firstRow(kept), at = 0; row >= 0; row = nextRow(kept, row), at++) {
      for (ColumnVector c : checked) {
        if (c.isNull(row)) {
          visitor.accept(at);
          break;
        }
      }
    }
    checkLive();
    return true;
  }

  /** A forward-only iterator from {@code index} (what {@code subList(..).iterator()} uses). */
  @Override
  public ListIterator<Row> listIterator(int index) {
    Objects.checkIndex(index, size + 1);
    Iterator<Row> rows = pass(index, null);
    return new ForwardRowIterator() {
      private int next = index;

      @Override
      public int nextIndex() {
        return next;
      }

      @Override
      public boolean hasNext() {
        return next < size;
      }

      @Override
      public Row next() {
        if (next >= size) {
          throw new NoSuchElementException();
        }
        next++;
        return rows.next();
      }
    };
  }

  /**
   * The rows from {@code from}: the first block made here, the rest on the read-ahead thread once a block was read
   * (a pass is under way, not a peek at the first rows).
   */
  private Iterator<Row> pass(int from, boolean[] wanted) {
    Rows rows = new Rows(from, wanted);
    if (size - from <= 2 * SpilledRows.BLOCK || !ReadAhead.worthIt()) {
      return rows;
    }
    return new Iterator<>() {
      private int read;
      private ReadAhead ahead;

      @Override
      public boolean hasNext() {
        return ahead != null ? ahead.hasNext() : rows.hasNext();
      }

      @Override
      public Row next() {
        if (ahead == null && read++ == SpilledRows.BLOCK) {
          ahead = new ReadAhead((ReadAhead.Blocks) rows, SpilledRows.BLOCK, () -> {});
        }
        return ahead != null ? ahead.next() : rows.next();
      }
    };
  }

  /**
   * The rows in order, only the {@code wanted} columns read (all when null), made a block at a time column by column:
   * a tight loop per column instead of a call per value, into an array per column rather than one per row (a pass
   * over a silver batch made 500,000 arrays as wide as the schema even to read one column of each row: 1.2 GB of
   * the stage's 6.5 GB of allocations). A row is a view of its block's arrays ({@link BlockRow}).
   */
  private final class Rows implements Iterator<Row>, ReadAhead.Blocks {
    private final boolean[] wanted;
    private Object[][] block;
    private int blockStart;
    private int blockRows;
    private int next;

    Rows(int from, boolean[] wanted) {
      if (wanted != null && wanted.length != columns.length) {
        throw new IllegalArgumentException("Wanted " + wanted.length + " columns of a schema of " + columns.length);
      }
      this.wanted = wanted;
      this.next = from;
      this.blockStart = from;
    }

    @Override
    public boolean hasNext() {
      return next < size;
    }

    @Override
    public Row next() {
      if (next >= size) {
        throw new NoSuchElementException();
      }
      if (block == null || next == blockStart + blockRows) {
        fillBlock();
      }
      return new BlockRow(block, next++ - blockStart);
    }

    @Override
    public int next(Row[] into) {
      int n = 0;
      while (n < into.length && next < size) {
        if (block == null || next == blockStart + blockRows) {
          fillBlock();
        }
        int take = Math.min(into.length - n, blockStart + blockRows - next);
        for (int i = 0; i < take; i++) {
          into[n++] = new BlockRow(block, next++ - blockStart);
        }
      }
      return n;
    }

    private void fillBlock() {
      checkLive();
      blockStart = next;
      blockRows = Math.min(SpilledRows.BLOCK, size - next);
      block = new Object[columns.length][];
      for (int c = 0; c < columns.length; c++) {
        if (wanted == null || wanted[c]) {
          block[c] = new Object[blockRows];
          columns[c].fill(block[c], 0, blockStart, blockRows);
        }
      }
      // Ended while filling (a reader that outlived its batch, on the read-ahead thread): the chunks may already
      // hold the next batch's values, so the block is refused rather than handed out.
      checkLive();
    }
  }

  /** Hands the columns' chunks back to the pool (once); reading the rows afterwards fails. */
  void release() {
    if (released) {
      return;
    }
    released = true;
    for (ColumnVector c : columns) {
      c.release();
    }
  }

  private void checkLive() {
    if (released) {
      throw new IllegalStateException("The rows of a batch were read after the batch ended; a step that keeps rows"
          + " beyond its batch must copy them");
    }
  }

  /** Collects rows column by column; single-threaded. */
  static final class Builder {
    private final ColumnVector[] columns;
    private int size;

    private Builder(ColumnVector[] columns) {
      this.columns = columns;
    }

    /** A builder for rows of {@code schema}, or null when a column's type has no columnar layout. */
    static Builder of(StructType schema) {
      ColumnVector[] columns = new ColumnVector[schema.size()];
      for (int c = 0; c < columns.length; c++) {
        columns[c] = ColumnVector.of(schema.field(c).type());
        if (columns[c] == null) {
          return null;
        }
      }
      return new Builder(columns);
    }

    /** Adds {@code row}; false (the row not added) when a value doesn't fit its column's layout. */
    boolean add(Row row) {
      if (row.size() != columns.length) {
        return false;
      }
      for (int c = 0; c < columns.length; c++) {
        if (!columns[c].set(size, row.get(c))) {
          return false;
        }
      }
      size++;
      return true;
    }

    /**
     * Adds {@code run}'s rows, copying its columns' arrays; false (none added) when a value doesn't fit its
     * column's layout or the run has another shape.
     */
    boolean add(DecodedRows run) {
      if (run.schema().size() != columns.length) {
        return false;
      }
      for (int c = 0; c < columns.length; c++) {
        // A column that refuses leaves values past size behind, which the next rows overwrite.
        if (!columns[c].append(size, run, c)) {
          return false;
        }
      }
      size += run.size();
      return true;
    }

    int size() {
      return size;
    }

    /** The heap the rows' values take in the columns ({@link ColumnVector#bytes}). */
    long bytes() {
      long total = 0;
      for (ColumnVector c : columns) {
        total += c.bytes(size);
      }
      return total;
    }

    /** Gives the columns' chunks back to the pool: the rows won't be built. */
    void discard() {
      for (ColumnVector c : columns) {
        c.release();
      }
    }

    /** The rows; registered with the thread's {@link BatchScope}, if one is open, to end with it. */
    ColumnarRows build() {
      ColumnarRows rows = new ColumnarRows(columns, size);
      BatchScope.register(rows);
      return rows;
    }
  }
}
