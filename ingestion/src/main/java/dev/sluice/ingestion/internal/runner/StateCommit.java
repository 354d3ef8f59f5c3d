package dev.sluice.ingestion.internal.runner;

import dev.sluice.ingestion.QueryProgress;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A batch's state commit running beside its sink's write. Writing the state files does not depend on the sink, nor
 * the sink on them, and the batch is done only when both are: {@code commits/N} follows both, so a crash while either
 * runs re-runs the batch on the previous state version, as a crash before either did.
 */
final class StateCommit {
  private static final ExecutorService COMMITTERS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "sluice-state-commit");
    t.setDaemon(true);
    return t;
  });

  private final Future<List<QueryProgress.StateOperatorProgress>> result;

  private StateCommit(Future<List<QueryProgress.StateOperatorProgress>> result) {
    this.result = result;
  }

  static StateCommit start(Callable<List<QueryProgress.StateOperatorProgress>> commit) {
    return new StateCommit(COMMITTERS.submit(commit));
  }

  static StateCommit none() {
    return new StateCommit(CompletableFuture.completedFuture(List.of()));
  }

  /**
   * Waits for the commit (even when interrupted: the next batch must not load state still being written) and returns
   * the {@code stateOperators} progress entries; rethrows what the commit threw.
   */
  List<QueryProgress.StateOperatorProgress> await() {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return result.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof RuntimeException r) {
            throw r;
          }
          if (cause instanceof Error err) {
            throw err;
          }
          throw new IllegalStateException("Committing the state failed: " + cause, cause);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Waits for the commit after the sink failed with {@code failure}, adding the commit's own failure to it. */
  void awaitAfter(Throwable failure) {
    try {
      await();
    } catch (RuntimeException | Error e) {
      failure.addSuppressed(e);
    }
  }
}
