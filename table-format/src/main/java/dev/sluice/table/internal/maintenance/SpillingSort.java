package dev.sluice.table.internal.maintenance;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.internal.parquet.ParquetDataReader;
import dev.sluice.table.internal.parquet.ParquetDataWriter;
import dev.sluice.table.internal.parquet.ParquetWriteOptions;
import dev.sluice.table.internal.parquet.WrittenFile;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Sorts more rows than the heap should hold: rows are buffered up to {@code bufferRows}, each full buffer is sorted
 * and spilled as a run (a Parquet file in a local temporary folder, small row groups so that reading it back holds
 * little), and {@link #sorted} merges the runs. Fewer rows than the buffer never touch the disk. Not thread-safe;
 * {@link #close} deletes the runs.
 */
public final class SpillingSort implements AutoCloseable {
  /** Rows a sort holds in the heap by default: some tens of MB for rows of a few hundred bytes. */
  public static final int DEFAULT_BUFFER_ROWS = 100_000;
  private static final ParquetWriteOptions RUN_FORMAT = ParquetWriteOptions.defaults().withNumIndexedCols(0)
      .withRowGroupSize(4L << 20);

  private final StructType schema;
  private final Comparator<Row> order;
  private final int bufferRows;
  private final List<Row> buffer = new ArrayList<>();
  private final List<WrittenFile> runs = new ArrayList<>();
  private final List<CloseableIterator<Row>> open = new ArrayList<>();
  private Path folder;
  private LocalObjectStore store;

  public SpillingSort(StructType schema, Comparator<Row> order, int bufferRows) {
    if (bufferRows < 1) {
      throw new IllegalArgumentException("A sort buffer holds at least one row, got " + bufferRows);
    }
    this.schema = schema;
    this.order = order;
    this.bufferRows = bufferRows;
  }

  public void add(Row row) {
    buffer.add(row);
    if (buffer.size() >= bufferRows) {
      spill();
    }
  }

  /** How many runs went to disk so far. */
  public int spilledRuns() {
    return runs.size();
  }

  /** All rows added, in order; call once, after the last {@link #add}. The sort closes the iterator's runs. */
  public CloseableIterator<Row> sorted() {
    if (runs.isEmpty()) {
      buffer.sort(order);
      return CloseableIterator.of(buffer.iterator());
    }
    if (!buffer.isEmpty()) {
      spill();
    }
    for (WrittenFile run : runs) {
      open.add(ParquetDataReader.read(store, run.key(), run.size(), schema));
    }
    return new Merged(open, order);
  }

  private void spill() {
    buffer.sort(order);
    if (store == null) {
      try {
        folder = Files.createTempDirectory("sluice-sort-");
      } catch (IOException e) {
        throw new StorageException("Cannot create a temporary folder to sort rows in (java.io.tmpdir="
            + System.getProperty("java.io.tmpdir") + "): " + e.getMessage() + ". Free space there or point"
            + " java.io.tmpdir at a writable disk.", e);
      }
      store = new LocalObjectStore(folder);
    }
    ParquetDataWriter writer = ParquetDataWriter.open(store, "run-" + runs.size() + ".parquet", schema, RUN_FORMAT);
    buffer.forEach(writer::write);
    runs.add(writer.close());
    buffer.clear();
  }

  @Override
  public void close() {
    for (CloseableIterator<Row> it : open) {
      it.close();
    }
    open.clear();
    buffer.clear();
    if (store != null) {
      store.deleteAll(runs.stream().map(WrittenFile::key).toList());
      try {
        Files.deleteIfExists(folder);
      } catch (IOException ignored) {
        // an empty temporary folder left behind is harmless
      }
    }
  }

  /** The k-way merge of sorted runs. */
  private static final class Merged implements CloseableIterator<Row> {
    private record Head(Row row, int run) {}

    private final List<CloseableIterator<Row>> runs;
    private final PriorityQueue<Head> heads;

    Merged(List<CloseableIterator<Row>> runs, Comparator<Row> order) {
      this.runs = runs;
      // Ties go to the earlier run, so rows that compare equal keep the order they were added in.
      this.heads = new PriorityQueue<>(Comparator.comparing(Head::row, order).thenComparingInt(Head::run));
      for (int i = 0; i < runs.size(); i++) {
        advance(i);
      }
    }

    private void advance(int run) {
      if (runs.get(run).hasNext()) {
        heads.add(new Head(runs.get(run).next(), run));
      }
    }

    @Override
    public boolean hasNext() {
      return !heads.isEmpty();
    }

    @Override
    public Row next() {
      Head h = heads.poll();
      if (h == null) {
        throw new NoSuchElementException();
      }
      advance(h.run);
      return h.row;
    }

    @Override
    public void close() {
      // The sort closes the runs.
    }
  }
}
