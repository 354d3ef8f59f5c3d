package dev.sluice.ingestion.internal.spill;

import dev.sluice.ingestion.Batch;
import dev.sluice.table.data.Row;
import java.util.AbstractList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * Another batch's rows, each turned into one row by a function applied as they are read: what a one-row-in,
 * one-row-out step (tagging, a lookup join) returns instead of a copy, so that its rows are never collected, let
 * alone spilled. The function runs again on every pass, so it must depend on the row and its position only.
 */
public final class MappedRows extends AbstractList<Row> implements BatchRows {
  private final List<Row> source;
  private final Batch.RowMapper mapper;

  public MappedRows(List<Row> source, Batch.RowMapper mapper) {
    this.source = source;
    this.mapper = mapper;
  }

  @Override
  public int size() {
    return source.size();
  }

  @Override
  public boolean spilled() {
    return source instanceof BatchRows b && b.spilled();
  }

  @Override
  public Row get(int index) {
    Objects.checkIndex(index, source.size());
    return mapper.map(source.get(index), index);
  }

  @Override
  public Iterator<Row> iterator() {
    return pass(null);
  }

  /**
   * A pass with {@code then} (null: nothing) applied after this view's function. Over rows read again from files, both
   * run where those rows are made, on the read-ahead thread: the reader then only consumes (gold's query thread spent
   * half its time in the lookup join while the decoding thread waited).
   */
  private Iterator<Row> pass(Batch.RowMapper then) {
    Batch.RowMapper both = then == null ? mapper : (row, position) -> then.map(mapper.map(row, position), position);
    if (source instanceof MappedRows inner) {
      return inner.pass(both);
    }
    if (source instanceof ReplayedRows replayed) {
      return replayed.pass(both);
    }
    return mapped(source.iterator(), both);
  }

  /** {@code rows}, each turned by {@code mapper} with its position, as they are read. */
  static Iterator<Row> mapped(Iterator<Row> rows, Batch.RowMapper mapper) {
    return new Iterator<>() {
      private int position;

      @Override
      public boolean hasNext() {
        return rows.hasNext();
      }

      @Override
      public Row next() {
        return mapper.map(rows.next(), position++);
      }
    };
  }
}
