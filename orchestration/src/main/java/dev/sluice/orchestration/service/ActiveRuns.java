package dev.sluice.orchestration.service;

import dev.sluice.ingestion.StreamingQuery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The runs in progress and their queries, so that a stop can end them at a batch boundary and wait for
 * them. Once stopping, no run may begin and a query that starts anyway is stopped at once.
 */
final class ActiveRuns {
  private final Map<String, StreamingQuery> queries = new HashMap<>();
  private int running;
  private boolean stopping;

  /** Counts a run in; false once the service is stopping. */
  synchronized boolean enter() {
    if (stopping) {
      return false;
    }
    running++;
    return true;
  }

  /** Registers the run's query; stops it when a stop began while it was starting. */
  void started(String pipeline, StreamingQuery query) {
    boolean stopNow;
    synchronized (this) {
      queries.put(pipeline, query);
      stopNow = stopping;
    }
    if (stopNow) {
      query.stop();
    }
  }

  synchronized void exit(String pipeline) {
    queries.remove(pipeline);
    running--;
    notifyAll();
  }

  synchronized boolean stopping() {
    return stopping;
  }

  /**
   * Refuses new runs and asks every running query to stop at its next batch boundary. {@code stop()} blocks
   * until its query ends, so each is asked on its own thread and {@link #awaitIdle} bounds the wait.
   */
  void stopAll() {
    List<StreamingQuery> toStop;
    synchronized (this) {
      stopping = true;
      toStop = new ArrayList<>(queries.values());
    }
    for (StreamingQuery q : toStop) {
      Thread t = new Thread(q::stop, "sluice-stop-" + q.name());
      t.setDaemon(true);
      t.start();
    }
  }

  synchronized int running() {
    return running;
  }

  /** Whether a query of the pipeline is running now. */
  synchronized boolean running(String pipeline) {
    return queries.containsKey(pipeline);
  }

  /** Waits until no run is in progress; false when {@code timeout} passed first. */
  synchronized boolean awaitIdle(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (running > 0) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }
}
