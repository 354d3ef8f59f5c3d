package dev.sluice.ingestion.internal.spill;

import dev.sluice.ingestion.state.internal.RowSpillCodec;
import dev.sluice.table.data.DecodedRows;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Collects the rows of a batch: in the heap while their estimated size stays within the budget; past it, column by
 * column in primitive arrays ({@link ColumnarRows}) while those stay within the budget; then in a spill file (the
 * state files' row encoding) that the built list reads back. Single-threaded; {@link #build} once.
 */
public final class RowBuffer {
  /** Rows whose size is measured before sampling every {@link #SAMPLE}-th one starts. */
  private static final int MEASURED = 256;
  private static final int SAMPLE = 16;
  /** Rows added to the columns between two counts of their size. */
  private static final int CHECK_EVERY = 1024;

  private final StructType schema;
  private final Optional<RowSpillCodec> codec;
  private final long budget;
  private Row[] held = new Row[64];
  private int size;
  private long estimate;
  /** Set once the boxed rows outgrow the budget: every row held and added since goes to the columns. */
  private ColumnarRows.Builder columns;
  /** Set once the rows outgrow the budget in columns too: every row goes to the spill file. */
  private SpillWriter writer;
  private boolean built;

  /** A buffer with the process-wide budget ({@link SpillOptions#budgetBytes()}). */
  public RowBuffer(StructType schema) {
    this(schema, SpillOptions.budgetBytes());
  }

  public RowBuffer(StructType schema, long budgetBytes) {
    this.schema = schema;
    this.codec = RowSpillCodec.of(schema, SpilledRows.BLOCK);
    this.budget = budgetBytes;
  }

  public void add(Row row) {
    if (built) {
      throw new IllegalStateException("The rows were already built");
    }
    if (writer != null) {
      writer.add(row);
      return;
    }
    if (columns != null) {
      if (!columns.add(row)) {
        spillColumns(row);
      } else if ((columns.size() & (CHECK_EVERY - 1)) == 0 && columns.bytes() > budget) {
        spillColumns(null);
      }
      return;
    }
    if (size == held.length) {
      held = Arrays.copyOf(held, size + (size >> 1));
    }
    held[size++] = row;
    estimate += sampledSize(row, size);
    if (estimate > budget && codec.isPresent()) {
      overBudget();
    }
  }

  /**
   * Adds rows decoded column by column: copied into the columns ({@link ColumnarRows}) without making a row, when
   * no boxed row is held and the values fit; otherwise row by row, as {@link #add(Row)} takes them.
   */
  public void add(DecodedRows run) {
    if (built) {
      throw new IllegalStateException("The rows were already built");
    }
    if (writer == null && columns == null && size == 0 && codec.isPresent()) {
      columns = ColumnarRows.Builder.of(schema);
    }
    if (writer == null && columns != null && sameTypes(run.schema()) && columns.add(run)) {
      if (columns.bytes() > budget) {
        spillColumns(null);
      }
      return;
    }
    for (int i = 0; i < run.size(); i++) {
      add(run.row(i));
    }
  }

  /** Whether {@code other}'s columns have this buffer's types, in order: the columns' layouts read them so. */
  private boolean sameTypes(StructType other) {
    if (other.size() != schema.size()) {
      return false;
    }
    for (int c = 0; c < other.size(); c++) {
      if (!other.field(c).type().equals(schema.field(c).type())) {
        return false;
      }
    }
    return true;
  }

  public void addAll(Iterable<Row> rows) {
    for (Row r : rows) {
      add(r);
    }
  }

  /**
   * Adds {@code rows} whose heap size was estimated by {@link #estimate} (by the thread that made them, so that
   * the rows are not read again here); they are copied in at once and spilled with the rest once over the budget.
   */
  public void addAll(List<Row> rows, long estimatedBytes) {
    if (built || writer != null || columns != null) {
      addAll(rows);
      return;
    }
    int n = rows.size();
    if (size + n > held.length) {
      held = Arrays.copyOf(held, Math.max(size + n, size + (size >> 1)));
    }
    for (int i = 0; i < n; i++) {
      held[size + i] = rows.get(i);
    }
    size += n;
    estimate += estimatedBytes;
    if (estimate > budget && codec.isPresent()) {
      overBudget();
    }
  }

  /** The estimated heap of {@code rows} as {@link #add} counts it: the first rows measured, then a sample. */
  public static long estimate(List<Row> rows) {
    long bytes = 0;
    for (int position = 1; position <= rows.size(); position = position < MEASURED ? position + 1 : position + SAMPLE) {
      bytes += sampledSize(rows.get(position - 1), position);
    }
    return bytes;
  }

  /** What the row at 1-based {@code position} adds to the estimate: the first rows measured, then every SAMPLE-th. */
  private static long sampledSize(Row row, int position) {
    if (position <= MEASURED) {
      return RowSizes.of(row);
    }
    return position % SAMPLE == 0 ? SAMPLE * RowSizes.of(row) : 0;
  }

  public int size() {
    return writer != null ? writer.size() : columns != null ? columns.size() : size;
  }

  /** The rows, in the order added; an immutable list that may read from the spill file. */
  public BatchRows build() {
    built = true;
    if (columns != null) {
      ColumnarRows rows = columns.build();
      columns = null;
      return rows;
    }
    if (writer == null) {
      Row[] rows = held;
      held = null;
      return new HeldRows(rows, size);
    }
    return writer.finish();
  }

  /** The boxed rows outgrew the budget: moves them into columns, or (a value that doesn't fit them) to the spill. */
  private void overBudget() {
    ColumnarRows.Builder c = ColumnarRows.Builder.of(schema);
    if (c != null) {
      boolean fits = true;
      for (int i = 0; i < size && fits; i++) {
        fits = c.add(held[i]);
      }
      if (fits && c.bytes() <= budget) {
        columns = c;
        held = null;
        size = 0;
        return;
      }
      c.discard();
    }
    startSpilling();
  }

  /** The columns outgrew the budget (or {@code pending} doesn't fit them): their rows and {@code pending} spill. */
  private void spillColumns(Row pending) {
    ColumnarRows rows = columns.build();
    columns = null;
    writer = new SpillWriter(codec.get());
    for (Row r : rows) {
      writer.add(r);
    }
    if (pending != null) {
      writer.add(pending);
    }
  }

  private void startSpilling() {
    writer = new SpillWriter(codec.get());
    int n = size;
    Row[] rows = held;
    held = null;
    size = 0;
    for (int i = 0; i < n; i++) {
      writer.add(rows[i]);
    }
  }
}
