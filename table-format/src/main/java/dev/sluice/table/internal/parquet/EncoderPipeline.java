package dev.sluice.table.internal.parquet;

import dev.sluice.table.data.Row;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands checked rows to Parquet's encoder on another thread, in chunks and in order, so that the writer's caller
 * (which builds, checks and counts the rows) and the encoding (dictionaries, pages, compression: most of a write's
 * cost) run on two cores. At most {@link #MAX_CHUNKS_IN_FLIGHT} chunks wait, so memory stays bounded whatever the
 * file size. A failure of the encoder is raised to the caller at its next call.
 *
 * <p>Used by one caller thread at a time; {@link #drain()} waits until every row handed over is encoded.
 */
final class EncoderPipeline {
  /** What encodes one row; runs on a pool thread, one chunk at a time, in the order rows were handed over. */
  interface Encoder {
    void encode(Row row) throws Exception;
  }

  /** A chunk of work the caller prepared whole ({@link #submit(Task)}), run on a pool thread in its turn. */
  interface Task {
    void run() throws Exception;
  }

  static final int CHUNK_ROWS = 2048;
  static final int MAX_CHUNKS_IN_FLIGHT = 4;
  private static final ExecutorService POOL = Executors.newCachedThreadPool(daemonThreads());

  private final Encoder encoder;
  private final Executor executor;
  private final Semaphore slots = new Semaphore(MAX_CHUNKS_IN_FLIGHT);
  private Row[] chunk = new Row[CHUNK_ROWS];
  private int size;
  private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);
  /** Set once encoding failed or was cancelled: queued chunks are then skipped. */
  private volatile boolean failed;

  EncoderPipeline(Encoder encoder) {
    this(encoder, POOL);
  }

  EncoderPipeline(Encoder encoder, Executor executor) {
    this.encoder = encoder;
    this.executor = executor;
  }

  /** Queues a row; may wait while the encoder is {@link #MAX_CHUNKS_IN_FLIGHT} chunks behind. */
  void add(Row row) throws Exception {
    chunk[size++] = row;
    if (size == CHUNK_ROWS) {
      submit();
    }
  }

  /** Waits until every row added so far is encoded; throws what the encoder threw. */
  void drain() throws Exception {
    if (size > 0) {
      submit();
    }
    await(tail);
  }

  /** Stops encoding what is queued (after a failure or an abort) and waits for the chunk being encoded, if any. */
  void cancel() {
    size = 0;
    failed = true;
    try {
      await(tail);
    } catch (Exception ignored) {
      // the writer is being given up
    }
  }

  private void submit() throws Exception {
    Row[] rows = chunk;
    int n = size;
    chunk = new Row[CHUNK_ROWS];
    size = 0;
    submit(() -> {
      for (int i = 0; i < n && !failed; i++) {
        encoder.encode(rows[i]);
      }
    });
  }

  /**
   * Queues {@code task} after every row and task queued before (rows added since the last chunk are not queued: use one
   * way or the other); may wait while the encoder is {@link #MAX_CHUNKS_IN_FLIGHT} chunks behind. A task queued after
   * a failure is skipped.
   */
  void submit(Task task) throws Exception {
    if (tail.isCompletedExceptionally()) {
      await(tail); // report the failure now rather than after queueing more rows
    }
    slots.acquire();
    // handle (not thenRun): the stage runs even after an earlier failure, so that its slot is always released.
    tail = tail.handleAsync((ignored, earlier) -> {
      try {
        if (earlier != null) {
          throw earlier instanceof CompletionException c ? c : new CompletionException(earlier);
        }
        if (!failed) {
          task.run();
        }
        return null;
      } catch (CompletionException e) {
        throw e;
      } catch (Exception e) {
        failed = true;
        throw new CompletionException(e);
      } finally {
        slots.release();
      }
    }, executor);
  }

  private static void await(CompletableFuture<Void> future) throws Exception {
    try {
      future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw e;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() instanceof CompletionException c && c.getCause() != null ? c.getCause() : e.getCause();
      if (cause instanceof Exception x) {
        throw x;
      }
      throw (Error) cause;
    }
  }

  private static java.util.concurrent.ThreadFactory daemonThreads() {
    AtomicInteger count = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "sluice-parquet-encoder-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
