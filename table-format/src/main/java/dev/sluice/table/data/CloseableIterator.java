package dev.sluice.table.data;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;

/** An iterator over a resource (files, network streams); the caller closes it. */
public interface CloseableIterator<T> extends Iterator<T>, Closeable {
  @Override
  void close();

  /** Reads every remaining element and closes the iterator. */
  default List<T> toList() {
    try (this) {
      List<T> out = new ArrayList<>();
      while (hasNext()) {
        out.add(next());
      }
      return out;
    }
  }

  default <R> CloseableIterator<R> map(Function<? super T, ? extends R> fn) {
    CloseableIterator<T> self = this;
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return self.hasNext();
      }

      @Override
      public R next() {
        return fn.apply(self.next());
      }

      @Override
      public void close() {
        self.close();
      }
    };
  }

  static <T> CloseableIterator<T> of(Iterator<T> it) {
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public T next() {
        return it.next();
      }

      @Override
      public void close() {}
    };
  }
}
