package dev.sluice.ingestion.internal.runner;

/**
 * A test seam: called at each step of the micro-batch protocol so that tests can crash a run exactly
 * there and check that a restart still delivers every row once. Registered per query name.
 */
@FunctionalInterface
public interface BatchInterceptor {
  /** The protocol steps, in order. */
  enum Step { AFTER_OFFSETS, BEFORE_SINK, AFTER_SINK, AFTER_COMMIT }

  void at(Step step, long batchId);

  BatchInterceptor NONE = (step, batchId) -> {};

  /** Registered interceptors by query name (tests only). */
  java.util.Map<String, BatchInterceptor> REGISTRY = new java.util.concurrent.ConcurrentHashMap<>();
}
