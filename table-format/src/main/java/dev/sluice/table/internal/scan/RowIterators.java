package dev.sluice.table.internal.scan;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.BoundPredicate;
import dev.sluice.table.types.StructType;
import java.util.Iterator;
import java.util.NoSuchElementException;

/** Iterator plumbing for scans: concatenation of per-file iterators, filtering and projection. */
public final class RowIterators {
  private RowIterators() {}

  /** Opens each file's iterator only when the previous one is exhausted; closing closes the current one. */
  public static <T> CloseableIterator<T> concat(Iterator<CloseableIterator<T>> parts) {
    return new CloseableIterator<>() {
      private CloseableIterator<T> current;

      @Override
      public boolean hasNext() {
        while (current == null || !current.hasNext()) {
          if (current != null) {
            current.close();
            current = null;
          }
          if (!parts.hasNext()) {
            return false;
          }
          current = parts.next();
        }
        return true;
      }

      @Override
      public T next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return current.next();
      }

      @Override
      public void close() {
        if (current != null) {
          current.close();
          current = null;
        }
      }
    };
  }

  /** The elements of {@code items} that {@code keep} accepts; closing closes {@code items}. */
  public static <T> CloseableIterator<T> filter(CloseableIterator<T> items, java.util.function.Predicate<T> keep) {
    return new CloseableIterator<>() {
      private T next;

      @Override
      public boolean hasNext() {
        while (next == null && items.hasNext()) {
          T candidate = items.next();
          if (keep.test(candidate)) {
            next = candidate;
          }
        }
        return next != null;
      }

      @Override
      public T next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        T out = next;
        next = null;
        return out;
      }

      @Override
      public void close() {
        items.close();
      }
    };
  }

  /** Rows of {@code readSchema} that match {@code filter}, projected to the given positions. */
  public static CloseableIterator<Row> filterProject(
      CloseableIterator<Row> rows, BoundPredicate filter, StructType readSchema, int[] projection) {
    boolean identity = projection.length == readSchema.size();
    for (int i = 0; identity && i < projection.length; i++) {
      identity = projection[i] == i;
    }
    boolean project = !identity;
    return new CloseableIterator<>() {
      private Row nextRow;

      @Override
      public boolean hasNext() {
        while (nextRow == null && rows.hasNext()) {
          Row r = rows.next();
          if (filter.test(r)) {
            nextRow = r;
          }
        }
        return nextRow != null;
      }

      @Override
      public Row next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Row r = nextRow;
        nextRow = null;
        if (!project) {
          return r;
        }
        Object[] out = new Object[projection.length];
        for (int i = 0; i < projection.length; i++) {
          out[i] = r.get(projection[i]);
        }
        return Row.of(out);
      }

      @Override
      public void close() {
        rows.close();
      }
    };
  }
}
