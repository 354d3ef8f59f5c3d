package dev.sluice.ingestion.internal.spill;

import dev.sluice.ingestion.state.internal.RowSpillCodec;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Collects the rows of a batch: in the heap while their estimated size stays within the budget, then in a spill
 * file (the state files' row encoding) that the built list reads back. Single-threaded; {@link #build} once.
 */
public final class RowBuffer {
  /** Rows whose size is measured before sampling every {@link #SAMPLE}-th one starts. */
  private static final int MEASURED = 256;
  private static final int SAMPLE = 16;

  private final Optional<RowSpillCodec> codec;
  private final long budget;
  private Row[] held = new Row[64];
  private int size;
  private long estimate;
  /** Set once the rows outgrow the budget: every row held and added since goes to the spill file. */
  private SpillWriter writer;
  private boolean built;

  /** A buffer with the process-wide budget ({@link SpillOptions#budgetBytes()}). */
  public RowBuffer(StructType schema) {
    this(schema, SpillOptions.budgetBytes());
  }

  public RowBuffer(StructType schema, long budgetBytes) {
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
    if (size == held.length) {
      held = Arrays.copyOf(held, size + (size >> 1));
    }
    held[size++] = row;
    estimate += sampledSize(row, size);
    if (estimate > budget && codec.isPresent()) {
      startSpilling();
    }
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
    if (built || writer != null) {
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
      startSpilling();
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
    return writer != null ? writer.size() : size;
  }

  /** The rows, in the order added; an immutable list that may read from the spill file. */
  public BatchRows build() {
    built = true;
    if (writer == null) {
      Row[] rows = held;
      held = null;
      return new HeldRows(rows, size);
    }
    return writer.finish();
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
