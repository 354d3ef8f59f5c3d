package dev.sluice.orchestration.service;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A run store that also tells listeners (metrics, the HTTP API) of every run recorded, whichever store keeps it. */
final class ListenedRunStore implements RunStore {
  private static final Logger LOG = LoggerFactory.getLogger(ListenedRunStore.class);
  private final RunStore store;
  private final List<Consumer<RunRecord>> listeners = new CopyOnWriteArrayList<>();

  ListenedRunStore(RunStore store) {
    this.store = store;
  }

  /** Calls {@code listener} with every run recorded from now on, on the thread that ran it. */
  void listen(Consumer<RunRecord> listener) {
    listeners.add(listener);
  }

  @Override
  public void add(RunRecord run) {
    store.add(run);
    for (Consumer<RunRecord> l : listeners) {
      try {
        l.accept(run);
      } catch (RuntimeException e) {
        // a listener must never fail the run that it watches
        LOG.warn("A run listener failed on the run of {}: {}", run.pipeline(), e.toString());
      }
    }
  }

  @Override
  public List<RunRecord> runs(String pipeline) {
    return store.runs(pipeline);
  }

  @Override
  public Optional<RunRecord> last(String pipeline) {
    return store.last(pipeline);
  }

  @Override
  public List<RunRecord> recent(Optional<String> pipeline, int limit) {
    return store.recent(pipeline, limit);
  }
}
