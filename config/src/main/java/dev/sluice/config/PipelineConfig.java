package dev.sluice.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One pipeline: a streaming query from its source through the layer's transforms to its sink table.
 *
 * <p>Transforms apply in this order: {@code process} or {@code join_stream} (silver), {@code joins} (gold), {@code columns}, {@code filter}, {@code expectations}
 * (silver), {@code dedup} (silver), {@code aggregate} (gold). {@link #trigger()} is already resolved against the
 * defaults, and so is {@link #stateStore()}.
 */
public record PipelineConfig(
    String name,
    Layer layer,
    SourceConfig source,
    List<DerivedColumn> columns,
    Optional<String> filter,
    List<Expectation> expectations,
    Optional<DedupConfig> dedup,
    List<JoinConfig> joins,
    Optional<AggregateConfig> aggregate,
    SinkConfig sink,
    TriggerConfig trigger,
    Optional<ScheduleConfig> schedule,
    List<String> after,
    MaintenanceConfig maintenance,
    StateStoreConfig stateStore,
    Optional<ProcessConfig> process,
    Optional<StreamJoinConfig> joinStream) {
  public PipelineConfig {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(layer, "layer");
    Objects.requireNonNull(source, "source");
    columns = List.copyOf(columns);
    Objects.requireNonNull(filter, "filter");
    expectations = List.copyOf(expectations);
    Objects.requireNonNull(dedup, "dedup");
    joins = List.copyOf(joins);
    Objects.requireNonNull(aggregate, "aggregate");
    Objects.requireNonNull(sink, "sink");
    Objects.requireNonNull(trigger, "trigger");
    Objects.requireNonNull(schedule, "schedule");
    after = List.copyOf(after);
    Objects.requireNonNull(maintenance, "maintenance");
    Objects.requireNonNull(stateStore, "stateStore");
    Objects.requireNonNull(process, "process");
    Objects.requireNonNull(joinStream, "joinStream");
  }

  /** Without a {@code process} step. */
  public PipelineConfig(String name, Layer layer, SourceConfig source, List<DerivedColumn> columns,
      Optional<String> filter, List<Expectation> expectations, Optional<DedupConfig> dedup, List<JoinConfig> joins,
      Optional<AggregateConfig> aggregate, SinkConfig sink, TriggerConfig trigger, Optional<ScheduleConfig> schedule,
      List<String> after, MaintenanceConfig maintenance, StateStoreConfig stateStore) {
    this(name, layer, source, columns, filter, expectations, dedup, joins, aggregate, sink, trigger, schedule, after,
        maintenance, stateStore, Optional.empty(), Optional.empty());
  }

  /** With the in-memory state store. */
  public PipelineConfig(String name, Layer layer, SourceConfig source, List<DerivedColumn> columns,
      Optional<String> filter, List<Expectation> expectations, Optional<DedupConfig> dedup, List<JoinConfig> joins,
      Optional<AggregateConfig> aggregate, SinkConfig sink, TriggerConfig trigger, Optional<ScheduleConfig> schedule,
      List<String> after, MaintenanceConfig maintenance) {
    this(name, layer, source, columns, filter, expectations, dedup, joins, aggregate, sink, trigger, schedule, after,
        maintenance, StateStoreConfig.inMemory());
  }

  /** Without maintenance of the sink table. */
  public PipelineConfig(String name, Layer layer, SourceConfig source, List<DerivedColumn> columns,
      Optional<String> filter, List<Expectation> expectations, Optional<DedupConfig> dedup, List<JoinConfig> joins,
      Optional<AggregateConfig> aggregate, SinkConfig sink, TriggerConfig trigger, Optional<ScheduleConfig> schedule,
      List<String> after) {
    this(name, layer, source, columns, filter, expectations, dedup, joins, aggregate, sink, trigger, schedule, after,
        MaintenanceConfig.none());
  }
}
