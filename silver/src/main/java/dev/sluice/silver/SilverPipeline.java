package dev.sluice.silver;

import dev.sluice.config.DedupConfig;
import dev.sluice.config.DerivedColumn;
import dev.sluice.config.Layer;
import dev.sluice.config.MergeConfig;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.WatermarkConfig;
import dev.sluice.ingestion.Checkpoints;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamFrame;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.Trigger;
import dev.sluice.table.Table;
import dev.sluice.table.types.StructType;
import java.util.List;

/**
 * Starts a silver pipeline: its bronze table read as a stream, then derived {@code columns}, {@code filter},
 * {@code expectations}, {@code dedup}, and a MERGE by {@code sink.merge.keys} into the silver table (SCD 1 or
 * 2, created with the change data feed on before the first batch).
 *
 * <p>Each batch records the row ledger ({@link dev.sluice.ingestion.RowLedger}) in progress
 * ({@code observedMetrics}) and in the silver commit's {@code operationMetrics}, balanced exactly. {@code
 * filtered}: the filter was false or NULL; {@code dropped} / {@code quarantined}: the strongest broken
 * expectation's action was drop / quarantine, or (quarantined) a merge key or the sequence_by value was null;
 * {@code late}: dropped by the dedup watermark (event time strictly before it); {@code deduplicated}: a
 * duplicate of a key seen within the watermark (or ever, without one); of the rows reaching the MERGE,
 * {@code written} changed the table (inserted, updated or deleted a row), {@code superseded} lost to a newer
 * version (in the batch, the table or a tombstone) and {@code unchanged} was already there. Counters
 * {@code expectation.<name>.failed} go to the same places. With a dedup watermark, rows whose event time is more
 * than {@code max_future_skew} after the batch's timestamp are quarantined (rule {@code max_future_skew}) before
 * they can move it. Writes carry {@code txn(<pipeline>, batchId)} (quarantine:
 * {@code <pipeline>:quarantine}); the query's name is the pipeline's and its checkpoint is
 * {@code <silver table>/_checkpoints/<pipeline>}.
 */
public final class SilverPipeline {
  private SilverPipeline() {}

  /**
   * Starts the pipeline's query.
   *
   * @throws IllegalArgumentException when the pipeline is not a silver one, lacks {@code sink.merge}, or an
   *     expression or column does not fit the bronze table's schema
   * @throws IllegalStateException when the bronze table does not exist yet
   */
  public static StreamingQuery start(SluiceSession session, SluiceConfig config, PipelineConfig pipeline,
      Trigger trigger) {
    if (pipeline.layer() != Layer.SILVER) {
      throw new IllegalArgumentException("Pipeline '" + pipeline.name() + "' is a " + pipeline.layer() + " pipeline;"
          + " SilverPipeline runs silver ones only");
    }
    MergeConfig mergeConfig = pipeline.sink().merge().orElseThrow(() -> new IllegalArgumentException("Pipeline '"
        + pipeline.name() + "' has no sink.merge; a silver pipeline MERGEs by key: add sink.merge.keys"));
    String bronzeUri = tableUri(config, pipeline.source().table().orElseThrow(() -> new IllegalArgumentException(
        "Pipeline '" + pipeline.name() + "' names no source table; set source.pipeline or source.table")));
    String silverUri = tableUri(config, pipeline.sink().table());
    Table bronze = session.table(bronzeUri);
    if (!bronze.exists()) {
      throw new IllegalStateException("Pipeline '" + pipeline.name() + "': its bronze table " + bronzeUri + " does not"
          + " exist yet; run the upstream pipeline " + pipeline.source().pipeline().orElse("") + " first");
    }
    StructType stage = SilverSchemas.stage(pipeline.name(), bronze.latestSnapshot().schema(), pipeline.columns());
    Table silver = session.table(silverUri);
    Tombstones tombstones = new Tombstones(session.table(silverUri + "/" + Tombstones.FOLDER),
        mergeConfig);
    MergeStrategy merge = mergeConfig.scd() == 2
        ? new Scd2Merge(silver, mergeConfig, tombstones)
        : new Scd1Merge(silver, mergeConfig, tombstones);
    SilverSchemas.positions(stage, mergeConfig.keys());
    dev.sluice.table.CreateTable create = silver.create(merge.tableSchema(stage))
        .partitionBy(pipeline.sink().partitionBy().toArray(String[]::new));
    pipeline.sink().properties().forEach(create::property);
    create.enableChangeDataFeed().ifNotExists().commit();
    BatchStates states = new BatchStates();
    StreamFrame frame = plan(session.readStream().format("delta").options(pipeline.source().options())
        .load(bronzeUri), pipeline, mergeConfig, states);
    Table quarantine = session.table(silverUri + "_quarantine");
    String checkpoint = silverUri + "/_checkpoints/" + pipeline.name();
    if (Checkpoints.isUnused(session.location(checkpoint))) {
      ReprocessedQuarantine.clear(pipeline.name(), quarantine, checkpoint);
    }
    // The engine's own guard gets the same limit, so that it agrees with the quarantine step.
    String maxFutureSkew = pipeline.dedup().flatMap(DedupConfig::watermark).map(w -> w.maxFutureSkew().text())
        .orElse(WatermarkConfig.DEFAULT_MAX_FUTURE_SKEW.text());
    var writer = frame.writeStream();
    pipeline.stateStore().options().forEach(writer::option);
    return writer.queryName(pipeline.name()).trigger(trigger)
        .option("maxFutureSkew", maxFutureSkew)
        .option("checkpointLocation", checkpoint)
        .option("minBatchesToRetain", Integer.toString(config.defaults().minBatchesToRetain()))
        .foreachBatch(new SilverSink(pipeline.name(), quarantine, states, merge))
        .start();
  }

  /**
   * The stream's schema after the first {@code columns} derived columns, as the pipeline computes it.
   *
   * @throws IllegalArgumentException naming a column whose expression does not fit {@code bronze}
   */
  public static StructType stageSchema(String pipeline, StructType bronze, List<DerivedColumn> columns) {
    return SilverSchemas.stage(pipeline, bronze, columns);
  }

  /**
   * The silver table's schema for a bronze table of schema {@code bronze}: the stage, plus SCD 2's
   * validity columns.
   *
   * @throws IllegalArgumentException naming a column or expression that does not fit
   */
  public static StructType tableSchema(PipelineConfig pipeline, StructType bronze) {
    StructType stage = SilverSchemas.stage(pipeline.name(), bronze, pipeline.columns());
    MergeConfig merge = pipeline.sink().merge().orElseThrow();
    SilverSchemas.positions(stage, merge.keys());
    // Only the schema is asked of the strategy: it needs no table for that.
    return merge.scd() == 2 ? new Scd2Merge(null, merge, null).tableSchema(stage) : stage;
  }

  private static StreamFrame plan(StreamFrame source, PipelineConfig pipeline, MergeConfig mergeConfig,
      BatchStates states) {
    StreamFrame frame = source.mapBatches("ledger rowsIn", LedgerStep.rowsIn(states));
    for (DerivedColumn c : pipeline.columns()) {
      frame = frame.withColumn(c.name(), c.expr());
    }
    if (pipeline.filter().isPresent()) {
      String condition = pipeline.filter().get();
      frame = frame.mapBatches("filter(" + condition + ")", new FilterStep(pipeline.name(), condition));
    }
    if (!pipeline.expectations().isEmpty()) {
      frame = frame.mapBatches("expectations", new ExpectationStep(pipeline.name(), pipeline.expectations(), states));
    }
    frame = frame.mapBatches("null merge keys", new NullKeyStep(mergeConfig, states));
    if (pipeline.dedup().isEmpty()) {
      return frame;
    }
    DedupConfig dedup = pipeline.dedup().get();
    String[] keys = dedup.keys().toArray(String[]::new);
    if (dedup.watermark().isPresent()) {
      WatermarkConfig watermark = dedup.watermark().get();
      String column = watermark.column();
      frame = frame.mapBatches("quarantine event times beyond max_future_skew",
              new FutureEventTimeStep(column, watermark.maxFutureSkew().duration(), states))
          .withWatermark(column, watermark.delay().text())
          .mapBatches("ledger before dedup", LedgerStep.beforeDedup(states, column))
          .dropDuplicatesWithinWatermark(keys);
    } else {
      frame = frame.mapBatches("ledger before dedup", LedgerStep.beforeDedup(states, null)).dropDuplicates(keys);
    }
    return frame.mapBatches("ledger after dedup", LedgerStep.afterDedup(states));
  }

  /** A table's URI under the warehouse (or as written, when absolute), without a trailing slash. */
  private static String tableUri(SluiceConfig config, String table) {
    String uri = config.tableUri(table).toString();
    return uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri;
  }
}
