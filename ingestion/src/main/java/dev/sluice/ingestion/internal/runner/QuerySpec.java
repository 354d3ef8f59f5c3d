package dev.sluice.ingestion.internal.runner;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.Trigger;
import dev.sluice.ingestion.internal.plan.TransformSpec;
import dev.sluice.ingestion.sink.Sink;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/** Everything a query run needs, as assembled by the fluent API. */
public record QuerySpec(
    String name,
    List<SourceSpec> sources,
    List<TransformSpec> transforms,
    Function<UUID, Sink> sinkFactory,
    String sinkDescription,
    OutputMode outputMode,
    Trigger trigger,
    Location checkpoint,
    int minBatchesToRetain,
    java.time.Duration runnerLeaseTimeout,
    java.time.Duration runnerLeaseWait,
    boolean maxWatermarkPolicy,
    java.time.Duration maxFutureSkew,
    java.util.Optional<Location> lateRowsTable,
    java.util.Map<String, String> fingerprint,
    dev.sluice.ingestion.state.StateStoreSettings stateStore) {
  public QuerySpec {
    java.util.Objects.requireNonNull(stateStore, "stateStore");
    sources = List.copyOf(sources);
    transforms = List.copyOf(transforms);
    fingerprint = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fingerprint));
  }
}
