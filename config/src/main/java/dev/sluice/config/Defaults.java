package dev.sluice.config;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * Settings applied to every pipeline that does not set its own: the trigger, the source rate limit, how many
 * batches of checkpoint history to keep, the scheduled maintenance of sink tables, and the state store of
 * stateful pipelines.
 */
public record Defaults(TriggerConfig trigger, OptionalInt maxFilesPerTrigger, int minBatchesToRetain,
    MaintenanceConfig maintenance, StateStoreConfig stateStore) {
  /** Spark's {@code spark.sql.streaming.minBatchesToRetain} default. */
  public static final int DEFAULT_MIN_BATCHES_TO_RETAIN = 100;

  public Defaults {
    Objects.requireNonNull(trigger, "trigger");
    Objects.requireNonNull(maxFilesPerTrigger, "maxFilesPerTrigger");
    Objects.requireNonNull(maintenance, "maintenance");
    Objects.requireNonNull(stateStore, "stateStore");
    if (minBatchesToRetain < 1) {
      throw new IllegalArgumentException("minBatchesToRetain must be at least 1, got " + minBatchesToRetain);
    }
  }

  /** With the in-memory state store. */
  public Defaults(TriggerConfig trigger, OptionalInt maxFilesPerTrigger, int minBatchesToRetain,
      MaintenanceConfig maintenance) {
    this(trigger, maxFilesPerTrigger, minBatchesToRetain, maintenance, StateStoreConfig.inMemory());
  }

  /** Without maintenance. */
  public Defaults(TriggerConfig trigger, OptionalInt maxFilesPerTrigger, int minBatchesToRetain) {
    this(trigger, maxFilesPerTrigger, minBatchesToRetain, MaintenanceConfig.none());
  }

  /** {@code available_now}, no rate limit, 100 batches retained. */
  public static Defaults standard() {
    return new Defaults(new TriggerConfig.AvailableNow(), OptionalInt.empty(), DEFAULT_MIN_BATCHES_TO_RETAIN);
  }
}
