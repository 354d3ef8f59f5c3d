package dev.sluice.ingestion.internal.sink;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test seam inside sinks that commit in two steps (Kafka transactions, file sinks with a log): called when
 * the batch's data is written but not yet committed, so that tests can crash exactly there. Registered per
 * query name, like {@link dev.sluice.ingestion.internal.runner.BatchInterceptor}.
 */
@FunctionalInterface
public interface SinkInterceptor {
  /** The sink-internal steps, in order. */
  enum Step {
    /** Records sent and flushed, or data files closed; the Kafka transaction or the sink log entry is not written. */
    DATA_WRITTEN
  }

  void at(Step step, long batchId);

  SinkInterceptor NONE = (step, batchId) -> {};

  /** Registered interceptors by query name (tests only). */
  Map<String, SinkInterceptor> REGISTRY = new ConcurrentHashMap<>();

  /** The interceptor registered for the query named {@code name}, or {@link #NONE}. */
  static SinkInterceptor forQuery(java.util.Optional<String> name) {
    return name.<SinkInterceptor>map(n -> (step, batchId) -> REGISTRY.getOrDefault(n, NONE).at(step, batchId))
        .orElse(NONE);
  }
}
