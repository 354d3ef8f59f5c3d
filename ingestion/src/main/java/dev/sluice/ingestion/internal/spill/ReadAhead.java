package dev.sluice.ingestion.internal.spill;

import dev.sluice.table.data.Row;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.lang.ref.WeakReference;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Rows produced on another thread, a few blocks ahead of the one reading them: decoding (a spill file, Parquet
 * files) goes to the second core while the reader does its own work. At most {@link #AHEAD} blocks wait decoded.
 * A reader that stops early and is forgotten ends the producer: the producer holds it only weakly and gives up once
 * it is collected. Public for the sources; not an API.
 */
public final class ReadAhead implements Iterator<Row> {
  private static final int AHEAD = 2;
  private static final Object END = new Object();
  private static final ExecutorService PRODUCERS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "sluice-read-ahead");
    t.setDaemon(true);
    return t;
  });

  private final BlockingQueue<Object> blocks = new ArrayBlockingQueue<>(AHEAD + 1);
  private Row[] block;
  private int next;
  private boolean ended;

  /** Whether reading ahead can help: another core to produce on. */
  public static boolean worthIt() {
    return Runtime.getRuntime().availableProcessors() > 1;
  }

  /**
   * A source that fills a block itself. Each kind of source then runs its own loop, which the JIT compiles for that
   * kind alone: one loop over every kind (Parquet files, columns, spill files) was compiled four times in a run, each
   * time a new kind came by (~0.35 s of C2, the largest methods it compiled).
   */
  public interface Blocks {
    /** Fills {@code into} from its start; returns how many rows, fewer than its length only at the end. */
    int next(Row[] into);

    /** These blocks' rows each turned by {@code mapper} with its position in the pass, where the blocks are made. */
    default Blocks mapped(dev.sluice.ingestion.Batch.RowMapper mapper) {
      Blocks source = this;
      int[] position = {0};
      return into -> {
        int n = source.next(into);
        for (int i = 0; i < n; i++) {
          into[i] = mapper.map(into[i], position[0]++);
        }
        return n;
      };
    }
  }

  /**
   * The rows of {@code source}, which another thread drains in blocks of {@code blockRows} (then runs {@code done}
   * there, also when the reader gave up or the source failed).
   */
  public ReadAhead(Iterator<Row> source, int blockRows, Runnable done) {
    this(blocksOf(source), blockRows, done);
  }

  private static Blocks blocksOf(Iterator<Row> source) {
    if (source instanceof Blocks b) {
      return b;
    }
    return into -> {
      int n = 0;
      while (n < into.length && source.hasNext()) {
        into[n++] = source.next();
      }
      return n;
    };
  }

  /** The rows of {@code source}, as {@link #ReadAhead(Iterator, int, Runnable)} drains an iterator. */
  public ReadAhead(Blocks source, int blockRows, Runnable done) {
    WeakReference<Object> reader = new WeakReference<>(this);
    BlockingQueue<Object> queue = blocks;
    PRODUCERS.execute(() -> {
      try {
        while (true) {
          Row[] b = new Row[blockRows];
          int n = source.next(b);
          if (n > 0 && !hand(queue, n == blockRows ? b : java.util.Arrays.copyOf(b, n), reader)) {
            return;
          }
          if (n < blockRows) {
            break;
          }
        }
        hand(queue, END, reader);
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

  @Override
  public boolean hasNext() {
    if (ended) {
      return false;
    }
    if (block != null && next < block.length) {
      return true;
    }
    Object item;
    try {
      item = blocks.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new InterruptedIOException("Interrupted while reading rows ahead"));
    }
    if (item == END) {
      ended = true;
      block = null;
      return false;
    }
    if (item instanceof RuntimeException e) {
      ended = true;
      throw e;
    }
    if (item instanceof Error e) {
      ended = true;
      throw e;
    }
    block = (Row[]) item;
    next = 0;
    return true;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return block[next++];
  }
}
