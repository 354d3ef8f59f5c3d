package dev.sluice.ingestion.internal.spill;

import dev.sluice.table.data.Row;
import java.util.AbstractList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import java.util.ListIterator;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * Some of another batch's rows, chosen by position: what a filtering step (a filter, a quarantine split, a
 * deduplication) returns instead of a copy, so that rows are neither copied nor spilled again at each step. The
 * view keeps its root list (never a view of a view) and the kept positions in it; iterating reads the root once, in
 * order. {@code get(i)} maps {@code i} to its root position through an index built on first use.
 */
public final class KeptRows extends AbstractList<Row> implements BatchRows {
  private final List<Row> root;
  private final BitSet kept;
  private final int size;
  private int[] positions;

  private KeptRows(List<Row> root, BitSet kept) {
    this.root = root;
    this.kept = kept;
    this.size = kept.cardinality();
  }

  /**
   * The rows of {@code rows} whose position is set in {@code kept}; {@code kept} must not change afterwards.
   * Keeping every row returns {@code rows} itself.
   */
  public static List<Row> of(List<Row> rows, BitSet kept) {
    if (kept.length() > rows.size()) {
      throw new IllegalArgumentException("Position " + (kept.length() - 1) + " is beyond the " + rows.size()
          + " rows of the batch");
    }
    if (kept.cardinality() == rows.size()) {
      return rows;
    }
    if (rows instanceof KeptRows view) {
      BitSet onRoot = new BitSet(view.root.size());
      int i = 0;
      for (int p = view.kept.nextSetBit(0); p >= 0; p = view.kept.nextSetBit(p + 1), i++) {
        if (kept.get(i)) {
          onRoot.set(p);
        }
      }
      return new KeptRows(view.root, onRoot);
    }
    return new KeptRows(rows, kept);
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean spilled() {
    return root instanceof BatchRows b && b.spilled();
  }

  @Override
  public Row get(int index) {
    Objects.checkIndex(index, size);
    return root.get(positions()[index]);
  }

  private int[] positions() {
    if (positions == null) {
      int[] p = new int[size];
      int i = 0;
      for (int bit = kept.nextSetBit(0); bit >= 0; bit = kept.nextSetBit(bit + 1)) {
        p[i++] = bit;
      }
      positions = p;
    }
    return positions;
  }

  /**
   * A forward-only iterator from {@code index} over the root's own iterator from there (what
   * {@code subList(..).iterator()} uses): on a spilled root it streams with a reader of its own, where {@code get(i)}
   * shares one seeking cursor, which iterators of two sublists read in parallel would keep moving.
   */
  @Override
  public ListIterator<Row> listIterator(int index) {
    Objects.checkIndex(index, size + 1);
    int from = index == size ? root.size() : positions()[index];
    return new ForwardRowIterator() {
      private final Iterator<Row> rows = root.listIterator(from);
      private int at = from;
      private int next = index;

      @Override
      public boolean hasNext() {
        return next < size;
      }

      @Override
      public Row next() {
        if (next >= size) {
          throw new NoSuchElementException();
        }
        int target = positions[next++];
        while (at < target) {
          rows.next();
          at++;
        }
        at++;
        return rows.next();
      }

      @Override
      public int nextIndex() {
        return next;
      }
    };
  }

  @Override
  public boolean forEachTimestamp(int column, dev.sluice.ingestion.Batch.MicrosVisitor visitor) {
    return root instanceof ColumnarRows c && c.forEachTimestamp(column, kept, visitor);
  }

  @Override
  public boolean forEachRowWithNullIn(int[] columns, java.util.function.IntConsumer visitor) {
    return root instanceof ColumnarRows c && c.forEachRowWithNullIn(columns, kept, visitor);
  }

  @Override
  public Iterator<Row> iterator() {
    return iterator(null);
  }

  @Override
  public Iterator<Row> iterator(boolean[] wanted) {
    return new Iterator<>() {
      private final Iterator<Row> rows = wanted != null && root instanceof BatchRows b ? b.iterator(wanted)
          : root.iterator();
      private int position = -1;
      private int next = kept.nextSetBit(0);

      @Override
      public boolean hasNext() {
        return next >= 0;
      }

      @Override
      public Row next() {
        if (next < 0) {
          throw new NoSuchElementException();
        }
        Row row;
        do {
          row = rows.next();
          position++;
        } while (position < next);
        next = kept.nextSetBit(next + 1);
        return row;
      }
    };
  }
}
