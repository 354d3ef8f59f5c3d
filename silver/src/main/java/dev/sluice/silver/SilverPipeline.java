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
import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigProblem;
import dev.sluice.config.ProcessConfig;
import dev.sluice.config.StreamJoinConfig;
import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.stateful.Plugins;

/**
 * Starts a silver pipeline: its bronze table read as a stream, then the optional {@code process} step (a user's
 * stateful processor loaded from {@link SluiceSession#pluginClassLoader()}, whose output rows are what the rest
 * of the pipeline and the ledger's {@code rowsIn} see) or the {@code join_stream} step (a stream-stream join with
 * another table's stream, see {@link StreamJoinStep}; its joined rows are what follows sees), derived
 * {@code columns}, {@code filter},
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
    Plugins.Loaded processor = pipeline.process().map(p -> processor(session, config, pipeline, p)).orElse(null);
    StreamJoinStep join = pipeline.joinStream().map(j -> joinStep(session, config, pipeline, j,
        bronze.latestSnapshot().schema())).orElse(null);
    StructType input = processor != null ? processor.outputSchema()
        : join != null ? join.outputSchema() : bronze.latestSnapshot().schema();
    StructType stage = SilverSchemas.stage(pipeline.name(), input, pipeline.columns());
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
    StreamFrame source = session.readStream().format("delta").options(pipeline.source().options()).load(bronzeUri);
    if (processor != null) {
      source = process(source, pipeline.process().get(), processor);
    }
    if (join != null) {
      StreamJoinConfig j = pipeline.joinStream().get();
      source = join.apply(source, session.readStream().format("delta").options(j.options())
          .load(tableUri(config, j.table().orElseThrow())));
    }
    StreamFrame frame = plan(source, pipeline, mergeConfig, states);
    Table quarantine = session.table(silverUri + "_quarantine");
    String checkpoint = silverUri + "/_checkpoints/" + pipeline.name();
    if (Checkpoints.isUnused(session.location(checkpoint))) {
      ReprocessedQuarantine.clear(pipeline.name(), quarantine, checkpoint);
    }
    // The engine's own guard gets the same limit, so that it agrees with the quarantine step.
    String maxFutureSkew = pipeline.dedup().flatMap(DedupConfig::watermark).map(w -> w.maxFutureSkew().text())
        .orElse(WatermarkConfig.DEFAULT_MAX_FUTURE_SKEW.text());
    var writer = frame.writeStream();
    pipeline.process().ifPresent(p -> writer.outputMode(p.outputMode().yamlName()));
    pipeline.stateStore().options().forEach(writer::option);
    return writer.queryName(pipeline.name()).trigger(trigger)
        .option("maxFutureSkew", maxFutureSkew)
        .option("checkpointLocation", checkpoint)
        .option("minBatchesToRetain", Integer.toString(config.defaults().minBatchesToRetain()))
        .foreachBatch(new SilverSink(pipeline.name(), quarantine, states, merge))
        .start();
  }

  /**
   * Loads the {@code process} class from the session's plugin class loader.
   *
   * @throws ConfigException at {@code pipelines[i].process.class} when it can't be loaded or isn't a processor
   */
  public static Plugins.Loaded processor(SluiceSession session, SluiceConfig config, PipelineConfig pipeline,
      ProcessConfig process) {
    try {
      return Plugins.load(process.className(), process.options(), session.pluginClassLoader());
    } catch (IllegalArgumentException e) {
      String path = "pipelines[" + config.pipelines().indexOf(pipeline) + "].process.class";
      throw new ConfigException("pipeline " + pipeline.name(), List.of(new ConfigProblem(path, 0, 0, e.getMessage(),
          "pass the processor's jar with --jars or put it in the plugins/ folder beside the config; the class"
              + " implements StatefulProcessor or FlatMapGroupsWithStateFunction, and ProcessorPlugin")));
    }
  }

  /**
   * The rows {@code join_stream} gives the rest of the pipeline, for a source of schema {@code left} and a joined
   * table of schema {@code right}: the keys once, the left columns, the right ones (clashing names
   * {@code <name>_right}); the left ones for {@code left_semi}.
   *
   * @throws IllegalArgumentException naming a key that is not a column of both
   */
  public static StructType joinedSchema(StreamJoinConfig join, StructType left, StructType right) {
    return new StreamJoinStep(join, left, right).outputSchema();
  }

  private static StreamJoinStep joinStep(SluiceSession session, SluiceConfig config, PipelineConfig pipeline,
      StreamJoinConfig join, StructType left) {
    String uri = tableUri(config, join.table().orElseThrow(() -> new IllegalArgumentException("Pipeline '"
        + pipeline.name() + "': join_stream names no table; set join_stream.pipeline or join_stream.table")));
    Table right = session.table(uri);
    if (!right.exists()) {
      throw new IllegalStateException("Pipeline '" + pipeline.name() + "': the table of join_stream, " + uri
          + ", does not exist yet; run the upstream pipeline " + join.pipeline().orElse("") + " first");
    }
    return new StreamJoinStep(join, left, right.latestSnapshot().schema());
  }

  /** The bronze stream through the processor: its watermark first (event-time timeouts need one), then the class. */
  private static StreamFrame process(StreamFrame source, ProcessConfig process, Plugins.Loaded processor) {
    if (process.watermark().isPresent()) {
      WatermarkConfig watermark = process.watermark().get();
      source = source.withWatermark(watermark.column(), watermark.delay().text());
    }
    return processor.apply(source, process.keys(), OutputMode.of(process.outputMode().yamlName()),
        process.timeout().yamlName());
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
