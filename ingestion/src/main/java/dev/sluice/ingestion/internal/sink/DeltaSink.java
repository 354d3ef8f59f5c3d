package dev.sluice.ingestion.internal.sink;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.sink.Sink;
import dev.sluice.table.CommitResult;
import dev.sluice.table.Table;
import java.util.List;

/**
 * Writes batches to a Delta table with {@code txn(appId = query id, version = batch id)} in the same
 * commit, so a batch re-run after a crash is skipped (Spark's DeltaSink). Append mode appends;
 * complete mode overwrites the table transactionally. The table is created by the first batch when
 * missing, with the batch's schema and the configured partition columns.
 */
public final class DeltaSink implements Sink {
  private final Table table;
  private final String appId;
  private final OutputMode mode;
  private final List<String> partitionBy;
  private final boolean mergeSchema;
  private volatile CommitResult last;
  private boolean created;

  public DeltaSink(Table table, String appId, OutputMode mode, List<String> partitionBy, boolean mergeSchema) {
    if (mode == OutputMode.UPDATE) {
      throw new IllegalArgumentException("The delta sink writes in append or complete mode; for update mode use"
          + " foreachBatch with MergeIntoTable (MERGE by key).");
    }
    this.table = table;
    this.appId = appId;
    this.mode = mode;
    this.partitionBy = List.copyOf(partitionBy);
    this.mergeSchema = mergeSchema;
  }

  @Override
  public long addBatch(long batchId, Batch batch) {
    return addBatch(batchId, batch, java.util.Map.of());
  }

  @Override
  public long addBatch(long batchId, Batch batch, java.util.Map<String, Long> batchMetrics) {
    if (!created && !table.exists()) {
      table.create(batch.schema()).partitionBy(partitionBy.toArray(String[]::new)).ifNotExists().commit();
    }
    created = true;
    CommitResult r = mode == OutputMode.COMPLETE
        ? table.newOverwrite().txn(appId, batchId).schema(batch.schema()).rows(batch.rows()).mergeSchema(mergeSchema)
            .operation("STREAMING UPDATE").metrics(batchMetrics).commit()
        : table.newAppend().txn(appId, batchId).schema(batch.schema()).rows(batch.rows()).mergeSchema(mergeSchema)
            .operation("STREAMING UPDATE").metric("batchId", batchId).metrics(batchMetrics).commit();
    last = r;
    return r.skipped() ? ALREADY_COMMITTED : batch.size();
  }

  /** The table version of the last commit (or the current version when the batch was skipped). */
  public long lastVersion() {
    return last == null ? -1 : last.version();
  }

  @Override
  public String description() {
    return "DeltaSink[" + table.uri() + "]";
  }
}
