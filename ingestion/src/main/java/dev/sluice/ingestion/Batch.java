package dev.sluice.ingestion;

import dev.sluice.ingestion.internal.spill.BatchRows;
import dev.sluice.ingestion.internal.spill.KeptRows;
import dev.sluice.ingestion.internal.spill.MappedRows;
import dev.sluice.ingestion.internal.spill.RowBuffer;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;

/**
 * The rows of one micro-batch (or of one source's part of it), with their schema. A batch built with
 * {@link #builder} keeps its rows in the heap up to a memory budget and spills the rest to a local file
 * ({@code sluice.batch.memoryBytes}, {@code sluice.spill.dir}); {@link #iterator()} then reads them back in
 * order, any number of times. {@link #rows()} is the same rows as a list: on a spilled batch it may read from
 * disk (a sequential pass is cheap, random {@code get(i)} seeks), so prefer {@link #iterator()} or a for-each
 * over {@link #rows()}, and never copy it into a list of your own.
 */
public record Batch(StructType schema, List<Row> rows) {
  public Batch {
    rows = rows instanceof BatchRows ? rows : List.copyOf(rows);
  }

  public static Batch empty(StructType schema) {
    return new Batch(schema, List.of());
  }

  /** A batch of {@code rows}, collected under the memory budget (spilling past it). */
  public static Batch of(StructType schema, Iterable<Row> rows) {
    Builder b = builder(schema);
    b.addAll(rows);
    return b.build();
  }

  /** Collects the rows of a new batch under the memory budget. */
  public static Builder builder(StructType schema) {
    return new Builder(schema, new RowBuffer(schema));
  }

  /** Collects the rows of a new batch that may hold {@code memoryBytes} of rows in the heap before it spills. */
  public static Builder builder(StructType schema, long memoryBytes) {
    return new Builder(schema, new RowBuffer(schema, memoryBytes));
  }

  /** The heap a batch being built may take before it spills ({@code sluice.batch.memoryBytes}). */
  public static long memoryBudget() {
    return dev.sluice.ingestion.internal.spill.SpillOptions.budgetBytes();
  }

  public int size() {
    return rows.size();
  }

  /** The rows in order; streams them from disk when the batch spilled. */
  public Iterator<Row> iterator() {
    return rows.iterator();
  }

  /**
   * The rows in order, of which only {@code columns} (positions in the schema) are sure to hold their values: the
   * others may read null. A pass that reads a few columns of a spilled batch then decodes only those; take a whole
   * row from {@link #rows()}{@code .get(i)} when one is needed.
   */
  public Iterable<Row> project(int... columns) {
    boolean[] wanted = new boolean[schema.size()];
    for (int c : columns) {
      wanted[c] = true;
    }
    return () -> rows instanceof BatchRows b ? b.iterator(wanted) : rows.iterator();
  }

  /** Receives the non-null values of a timestamp column, for {@link #forEachTimestamp}. */
  @FunctionalInterface
  public interface MicrosVisitor {
    /**
     * Row {@code row} (its position in the batch) holds {@code micros} microseconds since the epoch: sub-microsecond
     * digits dropped (floor), as Parquet stores them; saturated at {@code Long.MIN_VALUE} / {@code Long.MAX_VALUE}
     * beyond what a long of microseconds holds.
     */
    void visit(int row, long micros);
  }

  /**
   * Calls {@code visitor} with each non-null value of timestamp column {@code column}, in row order. Rows held in
   * columns are read there, without a row view and an {@code Instant} per row as a pass over {@link #project} makes
   * them (what an event-time step's pass over a silver batch allocated).
   *
   * @throws IllegalArgumentException when the column is not a timestamp
   */
  public void forEachTimestamp(int column, MicrosVisitor visitor) {
    if (schema.field(column).type() != dev.sluice.table.types.PrimitiveType.TIMESTAMP) {
      throw new IllegalArgumentException("Column " + column + " (" + schema.field(column).name() + ") is "
          + schema.field(column).type() + ", not a timestamp");
    }
    if (rows instanceof BatchRows b && b.forEachTimestamp(column, visitor)) {
      return;
    }
    int row = 0;
    for (Row r : project(column)) {
      if (r.get(column) instanceof java.time.Instant t) {
        visitor.visit(row, micros(t));
      }
      row++;
    }
  }

  /**
   * Calls {@code visitor} with the position of each row, in order, where at least one of {@code columns} is null. Rows
   * held in columns are answered from their null bits, decoding no value (a key check's pass over a silver batch made
   * a string and an instant per row only to see that none was null).
   */
  public void forEachRowWithNullIn(int[] columns, java.util.function.IntConsumer visitor) {
    if (rows instanceof BatchRows b && b.forEachRowWithNullIn(columns, visitor)) {
      return;
    }
    int row = 0;
    for (Row r : project(columns)) {
      for (int c : columns) {
        if (r.get(c) == null) {
          visitor.accept(row);
          break;
        }
      }
      row++;
    }
  }

  private static long micros(java.time.Instant t) {
    try {
      return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
    } catch (ArithmeticException e) {
      return t.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  /**
   * The rows at the positions set in {@code kept}, in order, without copying them: a view of this batch (its spill
   * file, if any, is read again when the view is iterated). {@code kept} must not change afterwards.
   */
  public Batch keep(BitSet kept) {
    return new Batch(schema, KeptRows.of(rows, kept));
  }

  /** The rows at the positions not set in {@code dropped}, in order: a view, as {@link #keep} makes. */
  public Batch without(BitSet dropped) {
    BitSet kept = new BitSet(size());
    kept.set(0, size());
    kept.andNot(dropped);
    return keep(kept);
  }

  /**
   * This batch's rows each turned into one row of {@code schema} as they are read, without collecting them: a view
   * that applies {@code mapper} again on every pass (so it must depend on the row and its position only).
   */
  public Batch map(StructType schema, RowMapper mapper) {
    return new Batch(schema, new MappedRows(rows, mapper));
  }

  /** One row of a batch turned into one row, for {@link #map}. */
  @FunctionalInterface
  public interface RowMapper {
    Row map(Row row, int position);
  }

  /** The heap {@code rows} hold as a batch's memory budget counts it (for {@link Builder#addAll(List, long)}). */
  public static long heapEstimate(List<Row> rows) {
    return RowBuffer.estimate(rows);
  }

  /** Whether some of this batch's rows live in a spill file. */
  public boolean spilled() {
    return rows instanceof BatchRows b && b.spilled();
  }

  /** Adds rows one at a time; {@link #build} once. Not thread-safe. */
  public static final class Builder {
    private final StructType schema;
    private final RowBuffer buffer;

    private Builder(StructType schema, RowBuffer buffer) {
      this.schema = schema;
      this.buffer = buffer;
    }

    public Builder add(Row row) {
      buffer.add(row);
      return this;
    }

    public Builder addAll(Iterable<Row> rows) {
      buffer.addAll(rows);
      return this;
    }

    /**
     * Adds rows a reader decoded column by column (a table's data file): kept as columns without a row object
     * made when they fit, else added as rows.
     */
    public Builder addColumns(dev.sluice.table.data.DecodedRows rows) {
      buffer.add(rows);
      return this;
    }

    /**
     * Adds rows whose heap size {@link Batch#heapEstimate} gave: a source that makes rows on several threads
     * measures them there, and the rows are added in one step.
     */
    public Builder addAll(List<Row> rows, long estimatedBytes) {
      buffer.addAll(rows, estimatedBytes);
      return this;
    }

    public int size() {
      return buffer.size();
    }

    public Batch build() {
      return new Batch(schema, buffer.build());
    }
  }
}
