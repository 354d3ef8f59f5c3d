package dev.sluice.ingestion.internal.spill;

import dev.sluice.ingestion.state.internal.RowSpillCodec;
import dev.sluice.table.data.Row;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Writes a batch's spill file on a thread of its own, a block of {@link SpilledRows#BLOCK} rows at a time, while the
 * caller goes on adding rows: encoding the rows on the query's thread was an eighth of a silver batch, with the
 * second core partly idle. At most {@link #IN_FLIGHT} full blocks wait to be written. A row that doesn't fit the
 * codec fails the next {@link #add} or {@link #finish}, naming the column, as it did when encoded in place.
 */
final class SpillWriter {
  private static final int IN_FLIGHT = 4;

  private final Path file;
  private final OutputStream out;
  private final RowSpillCodec codec;
  private final RowSpillCodec.Writer writer;
  private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "sluice-spill-write");
    t.setDaemon(true);
    return t;
  });
  private final Semaphore room = new Semaphore(IN_FLIGHT);
  private volatile RuntimeException failure;
  /** The offset of every block: written by the spill thread, read once it has ended. */
  private long[] blockOffsets = new long[16];
  private int blocks;
  private Row[] block = new Row[SpilledRows.BLOCK];
  private int pending;
  private int size;

  SpillWriter(RowSpillCodec codec) {
    this.codec = codec;
    try {
      Path dir = SpillOptions.directory();
      Files.createDirectories(dir);
      file = Files.createTempFile(dir, "batch-", ".rows");
      out = new BufferedOutputStream(Files.newOutputStream(file), 64 * 1024);
    } catch (IOException e) {
      thread.shutdown();
      throw new UncheckedIOException("Can't create a spill file in " + SpillOptions.directory() + " (set "
          + SpillOptions.DIRECTORY_PROPERTY + " to a writable local directory): " + e.getMessage(), e);
    }
    writer = codec.writer(out);
  }

  void add(Row row) {
    block[pending++] = row;
    size++;
    if (pending == block.length) {
      hand();
    }
  }

  int size() {
    return size;
  }

  /** Waits for the blocks handed off, writes the last one and closes the file: the rows, read from it. */
  SpilledRows finish() {
    Row[] last = Arrays.copyOf(block, pending);
    block = null;
    thread.shutdown();
    try {
      while (!thread.awaitTermination(1, TimeUnit.MINUTES)) {
        // a block of rows takes milliseconds; keep waiting rather than read a half-written file
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while a batch's spill file was written", e);
    }
    checkFailure();
    if (last.length > 0) {
      writeBlock(last, last.length);
    }
    writer.flush();
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Can't write a batch's spill file " + file + ": " + e.getMessage(), e);
    }
    return new SpilledRows(file, codec, size, Arrays.copyOf(blockOffsets, blocks));
  }

  private void hand() {
    checkFailure();
    Row[] full = block;
    block = new Row[SpilledRows.BLOCK];
    pending = 0;
    room.acquireUninterruptibly();
    thread.execute(() -> {
      try {
        if (failure == null) {
          writeBlock(full, full.length);
        }
      } catch (RuntimeException e) {
        failure = e;
      } finally {
        room.release();
      }
    });
  }

  private void writeBlock(Row[] rows, int n) {
    if (blocks == blockOffsets.length) {
      blockOffsets = Arrays.copyOf(blockOffsets, blocks * 2);
    }
    blockOffsets[blocks++] = writer.position();
    for (int i = 0; i < n; i++) {
      writer.write(rows[i]);
    }
  }

  private void checkFailure() {
    RuntimeException e = failure;
    if (e != null) {
      thread.shutdownNow();
      throw e;
    }
  }
}
