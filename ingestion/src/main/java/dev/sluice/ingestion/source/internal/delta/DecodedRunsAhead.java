package dev.sluice.ingestion.source.internal.delta;

import dev.sluice.table.DataFile;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.DecodedRows;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The decoded runs of a batch's files, decoded on another thread a run ahead of the query thread, which copies each
 * into the batch's columns. Decoding and copying were about equal parts of reading a silver batch, one after the
 * other on the query thread while the second core mostly idled (JFR of the 2 M-event medallion). One run waits
 * decoded and one is being decoded at most: two runs ({@code ColumnarFileReader.RUN} rows each) more in memory than
 * reading on one thread, whatever the files hold. A file that can't be decoded so is handed over as itself, in its
 * place, for the query thread to read as rows.
 */
final class DecodedRunsAhead implements AutoCloseable {
  private static final Object END = new Object();
  private static final ExecutorService DECODERS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "sluice-decode-ahead");
    t.setDaemon(true);
    return t;
  });

  private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(1);
  private volatile boolean closed;
  private boolean ended;

  DecodedRunsAhead(List<DataFile> files, Function<DataFile, Optional<CloseableIterator<DecodedRows>>> decode) {
    DECODERS.execute(() -> {
      try {
        for (DataFile file : files) {
          Optional<CloseableIterator<DecodedRows>> runs = decode.apply(file);
          if (runs.isEmpty()) {
            if (!hand(file)) {
              return;
            }
            continue;
          }
          try (CloseableIterator<DecodedRows> it = runs.get()) {
            while (it.hasNext()) {
              if (!hand(it.next())) {
                return;
              }
            }
          }
        }
        hand(END);
      } catch (RuntimeException | Error e) {
        hand(e);
      }
    });
  }

  /**
   * The next item in the files' order: a {@link DecodedRows} run, a {@link DataFile} to read as rows, or null after
   * the last. A failure to decode is thrown here, as it was thrown there.
   */
  Object next() {
    if (ended) {
      return null;
    }
    Object item;
    try {
      item = queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new InterruptedIOException("Interrupted while reading a batch's files"));
    }
    if (item == END) {
      ended = true;
      return null;
    }
    if (item instanceof RuntimeException e) {
      ended = true;
      throw e;
    }
    if (item instanceof Error e) {
      ended = true;
      throw e;
    }
    return item;
  }

  /** Waits for room; false once the reader closed (the decoder then stops, closing the file it reads). */
  private boolean hand(Object item) {
    try {
      while (!closed) {
        if (queue.offer(item, 100, TimeUnit.MILLISECONDS)) {
          return !closed;
        }
      }
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Stops the decoder, also when the reader fails before the end. */
  @Override
  public void close() {
    closed = true;
    queue.clear();
  }
}
