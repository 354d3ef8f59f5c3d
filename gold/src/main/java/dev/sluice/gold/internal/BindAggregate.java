package dev.sluice.gold.internal;

import dev.sluice.config.AggregateConfig;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchTransformer;
import dev.sluice.table.types.StructType;

/**
 * The last step of update and complete mode's plan, after joins, columns and filter: binding the aggregate to the
 * rows' schema checks it when the query starts (not at its first batch) and gives the group state its shape. The
 * batch passes through untouched; the sink reads it ({@link RecomputeGroups}).
 */
final class BindAggregate implements BatchTransformer {
  private final AggregateConfig config;
  private final GroupState state;

  /**
   * @param state the group totals of update mode, or null
   */
  BindAggregate(AggregateConfig config, GroupState state) {
    this.config = config;
    this.state = state;
  }

  @Override
  public StructType outputSchema(StructType input) {
    GroupAggregation aggregation = new GroupAggregation(config, input);
    if (state != null) {
      state.bind(new TotalsLayout(aggregation).schema());
    }
    return input;
  }

  @Override
  public Batch apply(Batch batch, Context context) {
    return batch;
  }
}
