package dev.sluice.gold;

import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.gold.internal.GoldQuery;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.Trigger;

/**
 * Starts a gold pipeline: silver's change data feed as a stream, stream-static joins, columns, filter and
 * the aggregate, written to the gold table so that after every batch it equals the same query computed
 * in batch over silver's snapshot at the batch's last change.
 *
 * <h2>How each output mode is exact</h2>
 * <ul>
 *   <li>{@code update} (default), when every measure is count, sum or avg (and no expression reads the
 *       clock): each change row of a batch — inserts and update post-images with sign +1, deletes and update
 *       pre-images with -1, after joins, columns and filter — changes the totals of its groups (window
 *       included): row count, and per measure the non-null count and the sum (exact for integers and
 *       decimals; floats as doubles, which accumulate rounding as values are taken back). The totals live in
 *       a versioned state store under {@code <checkpoint>/state/gold/<base>}, committed before the gold
 *       commit; silver's snapshot is not read. Joined files (not Delta tables) must not change while a
 *       checkpoint lives: gold can't see their versions, so a taken-back row would be joined differently
 *       than when it was added (an error says so when a group's row count would go below 0). The touched groups are MERGEd into gold by
 *       {@code _group_key}; a group whose row count reaches 0 is deleted. When a Delta table joined every
 *       batch has a new version, or there is no state for the previous batch (a checkpoint from before the
 *       state, or state that can't be rebuilt), the batch recomputes every group from silver's snapshot as
 *       below and starts the state again from the result ({@code gold.fullRecompute} = 1).
 *   <li>{@code update} with min or max: the groups of every change row of a batch are recomputed from
 *       silver's snapshot at the greatest {@code _commit_version} of the batch (scanning only the event-time
 *       range of their windows when the window column is a silver column), through the same joins, columns
 *       and filter, and MERGEd into gold by {@code _group_key}; a touched group with no row left is deleted.
 *       Retractions are therefore exact for every measure, min and max included, and no lateness limit
 *       applies. When a Delta table joined every batch has a new version, the next batch recomputes every
 *       group (its rows may have moved between groups).
 *   <li>{@code complete}: every batch recomputes the whole result from the snapshot and overwrites gold.
 *   <li>{@code append}: the engine's watermark and window aggregation; a window is written once the
 *       watermark passes its end. Only inserts are aggregated: a finalised window can't take back a row,
 *       so update and delete change rows, inserts older than the watermark, and inserts more than
 *       {@code aggregate.watermark.max_future_skew} (default 1 day) after the batch time, go to
 *       {@code <table>_late} instead.
 * </ul>
 *
 * <h2>The gold table</h2>
 * {@code window_start}, {@code window_end} (with a window), the group-by columns, the measures (Spark's
 * result types), and {@code _group_key}: the group's key values as canonical JSON, the MERGE key (SQL
 * equality never matches a null group value, so the group columns themselves can't be the key).
 * Checkpoint: {@code <gold table>/_checkpoints/<pipeline>}. Every commit carries
 * {@code txn(<pipeline>, batchId)}; a batch without change rows writes nothing.
 *
 * <h2>The ledger</h2>
 * Per batch, in the commit's {@code operationMetrics} and in progress {@code observedMetrics}:
 * {@code ledger.rowsIn} = change rows read from the feed = {@code written + filtered + late}
 * (deduplicated, quarantined and dropped are 0). A change row is counted once, however many rows a join
 * makes of it. Update/complete: {@code written} = change rows that reached the aggregate with a group
 * (their groups were recomputed), {@code filtered} = the others (inner join without match, filter, null
 * event time). Append: {@code written} = inserts aggregated, {@code late} = inserts older than the
 * watermark plus non-insert changes, {@code filtered} = the others. Also recorded:
 * {@code gold.incremental} (1 when the batch followed the change feed with state; then the snapshot
 * counters are absent), {@code gold.snapshotVersion}, {@code gold.snapshotRows}, {@code gold.fullRecompute},
 * {@code gold.dimensionVersion.<join index>} and the engine's {@code staticVersion.<name>}.
 */
public final class GoldPipeline {
  private GoldPipeline() {}

  /**
   * @throws IllegalArgumentException when the pipeline is not a gold pipeline with an aggregate
   * @throws dev.sluice.ingestion.AnalysisException when a column, measure or join is wrong (before anything runs)
   */
  public static StreamingQuery start(SluiceSession session, SluiceConfig config, PipelineConfig pipeline,
      Trigger trigger) {
    return GoldQuery.start(session, config, pipeline, trigger);
  }
}
