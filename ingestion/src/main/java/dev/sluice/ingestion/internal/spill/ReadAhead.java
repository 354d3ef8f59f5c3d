package dev.sluice.ingestion.internal.spill;

import dev.sluice.table.data.Row;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.lang.ref.WeakReference;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Decodes rows on another thread, a few blocks ahead of the one reading them: a pass over a spilled batch then
 * costs the reader little more than its own work, and the decoding goes to the second core. At most
 * {@link #AHEAD} blocks wait decoded. A reader that stops early and is forgotten ends the decoding: the decoder
 * holds it only weakly and gives up once it is collected.
 */
final class ReadAhead {
  private static final int AHEAD = 2;
  private static final ExecutorService DECODERS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "sluice-spill-read");
    t.setDaemon(true);
    return t;
  });

  private final BlockingQueue<Object> blocks = new ArrayBlockingQueue<>(AHEAD);
  private Row[] block;
  private int next;

  /** Whether reading ahead can help: another core to decode on. */
  static boolean worthIt() {
    return Runtime.getRuntime().availableProcessors() > 1;
  }

  /**
   * Starts decoding {@code rows} rows from {@code source} (then {@code done} runs, on the decoder) in blocks of
   * {@code blockRows}, for {@code owner}: decoding stops when the owner is collected.
   */
  ReadAhead(Object owner, Supplier<Row> source, int rows, int blockRows, Runnable done) {
    WeakReference<Object> reader = new WeakReference<>(owner);
    BlockingQueue<Object> queue = blocks;
    DECODERS.execute(() -> {
      try {
        for (int read = 0; read < rows; ) {
          Row[] b = new Row[Math.min(blockRows, rows - read)];
          for (int i = 0; i < b.length; i++) {
            b[i] = source.get();
          }
          read += b.length;
          if (!hand(queue, b, reader)) {
            return;
          }
        }
      } catch (RuntimeException | Error e) {
        hand(queue, e, reader);
      } finally {
        done.run();
      }
    });
  }

  private static boolean hand(BlockingQueue<Object> queue, Object item, WeakReference<Object> reader) {
    try {
      while (!queue.offer(item, 200, TimeUnit.MILLISECONDS)) {
        if (reader.get() == null) {
          return false;
        }
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The next row; the caller knows how many there are. */
  Row next() {
    if (block == null || next == block.length) {
      Object item;
      try {
        item = blocks.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UncheckedIOException(new InterruptedIOException("Interrupted while reading a spilled batch"));
      }
      if (item instanceof RuntimeException e) {
        throw e;
      }
      if (item instanceof Error e) {
        throw e;
      }
      block = (Row[]) item;
      next = 0;
    }
    return block[next++];
  }
}
