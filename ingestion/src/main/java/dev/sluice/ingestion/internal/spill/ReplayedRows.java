package dev.sluice.ingestion.internal.spill;

import dev.sluice.ingestion.Batch;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.AbstractList;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A batch's rows read again from where they came from (immutable table files) on every pass, never copied: a plan
 * that reads its batch once (gold's update mode) then decodes each row once, where a copy cost a pass to write it
 * to the spill file and one more to read it back. Random access ({@code get(i)}) copies the rows once, under the
 * memory budget, and reads the copy from then on. Public for the sources; not an API.
 */
public final class ReplayedRows extends AbstractList<Row> implements BatchRows {
  private final StructType schema;
  private final int size;
  private final Function<Batch.RowMapper, Iterator<Row>> pass;
  private BatchRows copy;

  /**
   * @param size how many rows every pass yields (the files' record counts)
   * @param pass starts a pass over the rows; a pass that yields another count than {@code size} fails
   */
  public ReplayedRows(StructType schema, int size, Supplier<Iterator<Row>> pass) {
    this(schema, size, mapper -> mapper == null ? pass.get() : MappedRows.mapped(pass.get(), mapper));
  }

  /**
   * @param pass starts a pass over the rows, each turned by the given mapper (null: none) where the pass makes them —
   *     on its read-ahead thread, so that a view's work (gold's tagging and lookup join) runs beside the reader's
   */
  public ReplayedRows(StructType schema, int size, Function<Batch.RowMapper, Iterator<Row>> pass) {
    this.schema = schema;
    this.size = size;
    this.pass = pass;
  }

  @Override
  public int size() {
    return size;
  }

  /** True: the rows are not held in the heap, a pass reads them from files. */
  @Override
  public boolean spilled() {
    return true;
  }

  @Override
  public Row get(int index) {
    Objects.checkIndex(index, size);
    if (copy == null) {
      RowBuffer buffer = new RowBuffer(schema);
      iterator().forEachRemaining(buffer::add);
      copy = buffer.build();
    }
    return copy.get(index);
  }

  @Override
  public Iterator<Row> iterator() {
    return pass(null);
  }

  /** A pass with each row turned by {@code mapper} (null: none) where the pass makes it. */
  Iterator<Row> pass(Batch.RowMapper mapper) {
    if (copy != null) {
      return mapper == null ? copy.iterator() : MappedRows.mapped(copy.iterator(), mapper);
    }
    Iterator<Row> rows = pass.apply(mapper);
    return new Iterator<>() {
      private int read;

      @Override
      public boolean hasNext() {
        boolean more = rows.hasNext();
        if (!more && read != size) {
          throw miscounted(read);
        }
        return more;
      }

      @Override
      public Row next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        if (read == size) {
          throw miscounted(read + 1);
        }
        read++;
        return rows.next();
      }
    };
  }

  private IllegalStateException miscounted(int read) {
    return new IllegalStateException("A pass over a batch read from table files yielded " + (read > size ? "more than "
        : "") + read + " rows where the files' record counts say " + size + " (a file changed or its stats are wrong)");
  }
}
