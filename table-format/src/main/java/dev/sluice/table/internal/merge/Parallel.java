package dev.sluice.table.internal.merge;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a write's independent tasks (one target file each, or a share of the inserts) on a few threads, so that
 * reading, merging and Parquet encoding keep both cores busy. Every task runs to its end even when another
 * fails, so that the caller can abort all that was written.
 */
public final class Parallel {
  /** Threads per write: the machines Sluice targets have few cores, and the micro-batch runner uses one. */
  public static final int THREADS = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
  private static final AtomicInteger POOLS = new AtomicInteger();

  private Parallel() {}

  /** The results of {@code tasks}, in order; the first failure (a RuntimeException or Error) is rethrown. */
  public static <T> List<T> run(List<Callable<T>> tasks) {
    if (tasks.size() <= 1 || THREADS == 1) {
      List<T> out = new ArrayList<>();
      for (Callable<T> t : tasks) {
        out.add(call(t));
      }
      return out;
    }
    int pool = POOLS.incrementAndGet();
    AtomicInteger n = new AtomicInteger();
    ExecutorService executor = Executors.newFixedThreadPool(Math.min(THREADS, tasks.size()), r -> {
      Thread t = new Thread(r, "sluice-write-" + pool + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (Callable<T> t : tasks) {
        futures.add(executor.submit(t));
      }
      List<T> out = new ArrayList<>();
      Throwable failure = null;
      for (Future<T> f : futures) {
        try {
          out.add(f.get());
        } catch (ExecutionException e) {
          failure = failure == null ? e.getCause() : failure;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          failure = failure == null ? e : failure;
        }
      }
      if (failure instanceof RuntimeException re) {
        throw re;
      }
      if (failure instanceof Error err) {
        throw err;
      }
      if (failure != null) {
        throw new IllegalStateException("A write task was interrupted or failed: " + failure, failure);
      }
      return out;
    } finally {
      executor.shutdownNow();
    }
  }

  private static <T> T call(Callable<T> task) {
    try {
      return task.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
