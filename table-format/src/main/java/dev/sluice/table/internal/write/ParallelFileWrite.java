package dev.sluice.table.internal.write;

import dev.sluice.table.data.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

/**
 * Writes a large in-memory batch as several files at once: the rows are cut into contiguous slices, one per
 * core, and each slice is written by its own {@link TableWriter} (rolling at the target file size as usual) on
 * its own thread, the caller writing the first. Encoding Parquet is most of a write's cost and one file is
 * encoded by one thread, so this is what keeps every core busy while a big batch is written — as Spark writes one
 * file per task. Slices are contiguous and their files are returned in slice order, so reading the files in the
 * order of the log gives the rows in the order they were handed over.
 *
 * <p>The outcome is that of writing the rows one by one: when a slice fails, every slice's files are deleted and
 * the failure of the first failing slice (that of the first bad row) is thrown.
 */
public final class ParallelFileWrite {
  /**
   * Fewer rows than this per slice and a write is not split: a batch of a few thousand rows is written in
   * milliseconds, and more, smaller files would cost every later reader more than the split saves.
   */
  public static final int MIN_ROWS_PER_SLICE = 32_768;

  /**
   * Slice {@code i} numbers its files from {@code i * FILE_NUMBERS_PER_SLICE} ({@code part-01000-…} is the first
   * file of the second slice), so that file names sort in row order as an unsplit write's do.
   */
  public static final int FILE_NUMBERS_PER_SLICE = 1_000;

  private static final ExecutorService POOL = Executors.newCachedThreadPool(daemonThreads());

  private ParallelFileWrite() {}

  /** How many slices a write of {@code rows} rows gets on {@code cores} cores (1: write it as usual). */
  public static int slices(int rows, int cores) {
    return Math.max(1, Math.min(cores, rows / MIN_ROWS_PER_SLICE));
  }

  /** {@link #slices(int, int)} on this machine's cores. */
  public static int slices(int rows) {
    return slices(rows, Runtime.getRuntime().availableProcessors());
  }

  /**
   * Writes {@code rows} in {@code slices} contiguous slices, each through {@code convert} (to a row of the table
   * schema) into the writer {@code newWriter} makes for the slice's index.
   *
   * @return the files of every slice, in slice order
   */
  public static List<NewFile> write(List<Row> rows, int slices, IntFunction<TableWriter> newWriter,
      UnaryOperator<Row> convert) {
    List<TableWriter> writers = new ArrayList<>(slices);
    for (int i = 0; i < slices; i++) {
      writers.add(newWriter.apply(i));
    }
    List<CompletableFuture<List<NewFile>>> results = new ArrayList<>(slices);
    int n = rows.size();
    for (int i = 1; i < slices; i++) {
      List<Row> slice = rows.subList((int) ((long) n * i / slices), (int) ((long) n * (i + 1) / slices));
      TableWriter writer = writers.get(i);
      results.add(CompletableFuture.supplyAsync(() -> writeSlice(writer, slice, convert), POOL));
    }
    RuntimeException failure = null;
    List<NewFile> files = new ArrayList<>();
    try {
      files.addAll(writeSlice(writers.get(0), rows.subList(0, n / slices), convert));
    } catch (RuntimeException e) {
      failure = e;
    }
    for (CompletableFuture<List<NewFile>> result : results) {
      try {
        List<NewFile> written = await(result);
        files.addAll(written);
      } catch (RuntimeException e) {
        failure = failure != null ? failure : e;
      }
    }
    if (failure != null) {
      // Every slice has stopped by now: no writer is in use while it is aborted.
      writers.forEach(TableWriter::abort);
      throw failure;
    }
    return files;
  }

  private static List<NewFile> writeSlice(TableWriter writer, List<Row> slice, UnaryOperator<Row> convert) {
    for (Row row : slice) {
      writer.write(convert.apply(row));
    }
    return writer.finish();
  }

  private static List<NewFile> await(CompletableFuture<List<NewFile>> result) {
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      result.join(); // a slice writer must not outlive the write: its files are deleted on failure
      throw new IllegalStateException("Interrupted while waiting for a data file writer", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger count = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "sluice-file-writer-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
