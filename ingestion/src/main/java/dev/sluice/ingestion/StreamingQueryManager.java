package dev.sluice.ingestion;

import dev.sluice.ingestion.internal.runner.MicroBatchExecution;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/** The active queries of a session, and the listeners that hear about every query. */
public final class StreamingQueryManager {
  private final List<MicroBatchExecution> active = new CopyOnWriteArrayList<>();
  private final List<StreamingQueryListener> listeners = new CopyOnWriteArrayList<>();
  private final Object terminations = new Object();
  private volatile StreamingQuery lastTerminated;

  public List<StreamingQuery> active() {
    return List.copyOf(active);
  }

  public Optional<StreamingQuery> get(UUID id) {
    return active.stream().filter(q -> id.equals(q.id())).map(q -> (StreamingQuery) q).findFirst();
  }

  public void addListener(StreamingQueryListener listener) {
    listeners.add(listener);
  }

  public void removeListener(StreamingQueryListener listener) {
    listeners.remove(listener);
  }

  /** Waits until any query of this session terminates (or the timeout passes); returns it, if any. */
  public Optional<StreamingQuery> awaitAnyTermination(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (terminations) {
      while (lastTerminated == null) {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          return Optional.empty();
        }
        try {
          terminations.wait(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return Optional.empty();
        }
      }
      return Optional.of(lastTerminated);
    }
  }

  /** Forgets past terminations, so that {@link #awaitAnyTermination} waits for a new one. */
  public void resetTerminated() {
    synchronized (terminations) {
      lastTerminated = null;
    }
  }

  /** Stops every active query. */
  public void stopAll() {
    for (MicroBatchExecution q : active) {
      q.stop();
    }
  }

  List<StreamingQueryListener> listeners() {
    return listeners;
  }

  void register(MicroBatchExecution query) {
    for (MicroBatchExecution q : active) {
      if (q.isActive() && q.uses(query.checkpointLocation())) {
        throw new IllegalStateException("Cannot start query" + (query.name() == null ? "" : " '" + query.name() + "'")
            + ": query " + q + " is already running with checkpoint " + query.checkpointLocation()
            + ". Only one runner of a query may be active; stop it first or use another checkpointLocation.");
      }
    }
    active.add(query);
  }

  void terminated(MicroBatchExecution query) {
    active.remove(query);
    synchronized (terminations) {
      lastTerminated = query;
      terminations.notifyAll();
    }
  }
}
