package dev.sluice.gold.internal;

import dev.sluice.config.AggregateConfig;
import dev.sluice.config.AggregateOutputMode;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.DerivedColumn;
import dev.sluice.config.JoinConfig;
import dev.sluice.config.JoinRefresh;
import dev.sluice.config.JoinType;
import dev.sluice.config.Layer;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.SourceFormat;
import dev.sluice.config.WindowConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StaticTable;
import dev.sluice.ingestion.StreamFrame;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.Trigger;
import dev.sluice.table.Table;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Builds and starts the streaming query of one gold pipeline (see {@code GoldPipeline}). */
public final class GoldQuery {
  private static final Pattern DECIMAL = Pattern.compile("decimal\\((\\d+),\\s*(\\d+)\\)");
  /** Functions whose value depends on when a batch runs: a row taken back may no longer compute as it was added. */
  private static final Pattern CLOCK = Pattern.compile("(?i)\\b(current_timestamp|current_date|now)\\b");

  private final SluiceSession session;
  private final SluiceConfig config;
  private final PipelineConfig pipeline;
  private final AggregateConfig aggregate;
  private final String goldUri;
  private final LedgerState ledger = new LedgerState();

  private GoldQuery(SluiceSession session, SluiceConfig config, PipelineConfig pipeline) {
    this.session = session;
    this.config = config;
    this.pipeline = pipeline;
    if (pipeline.layer() != Layer.GOLD) {
      throw GoldErrors.notGold(pipeline.name(), "its layer is " + pipeline.layer());
    }
    this.aggregate = pipeline.aggregate().orElseThrow(() -> GoldErrors.notGold(pipeline.name(), "it has no aggregate"));
    this.goldUri = config.tableUri(pipeline.sink().table()).toString();
    if (aggregate.sessionWindow().isPresent() && aggregate.outputMode() != AggregateOutputMode.APPEND) {
      throw GoldErrors.notGold(pipeline.name(), "a session window is written in append mode only");
    }
  }

  /** Starts the pipeline's query. */
  public static StreamingQuery start(SluiceSession session, SluiceConfig config, PipelineConfig pipeline,
      Trigger trigger) {
    return new GoldQuery(session, config, pipeline).start(trigger);
  }

  private StreamingQuery start(Trigger trigger) {
    String silverUri = config.tableUri(pipeline.source().table().orElseThrow(
        () -> GoldErrors.notGold(pipeline.name(), "its source names no table or pipeline"))).toString();
    Table silver = session.table(silverUri);
    Table gold = session.table(goldUri);
    // Update and complete mode read a batch once (the sink counts the ledger as it aggregates): silver's snapshot
    // is decoded from its files in that pass, never copied. Append mode's plan is the engine's.
    boolean append = aggregate.outputMode() == AggregateOutputMode.APPEND;
    var reader = session.readStream().format("delta").option("rereadFiles", Boolean.toString(!append));
    if (!append && silver.exists()) {
      // Append mode writes late change rows whole to their table; the other modes only aggregate them.
      ReadColumns.of(pipeline, aggregate, silver.latestSnapshot().schema().fieldNames())
          .ifPresent(columns -> reader.option("columns", columns));
    }
    StreamFrame changes = reader.options(pipeline.source().options()).option("readChangeFeed", "true").load(silverUri);
    SnapshotRows snapshot = append ? null : new SnapshotRows(silver, gold,
        aggregate.outputMode() == AggregateOutputMode.COMPLETE, pruneColumn(), windowMicros(true),
        windowMicros(false), dimensions());
    String checkpoint = goldUri + "/_checkpoints/" + pipeline.name();
    GroupState state = followsChangeFeed() ? new GroupState(session.location(checkpoint).resolve("state/gold"),
        readsFromStart(), config.defaults().minBatchesToRetain()) : null;
    StreamFrame frame = transforms(changes.mapBatches("gold: tag change rows and read current rows",
        new TagChanges(ledger, snapshot, state)));
    if (append) {
      refuseAppendOverExistingWindows(gold, checkpoint);
    }
    var writer = append ? appendQuery(frame, gold) : frame.mapBatches("gold: bind the aggregate", new BindAggregate(aggregate, state))
        .writeStream().foreachBatch(new RecomputeGroups(aggregate, gold, pipeline.sink().partitionBy(), ledger, state));
    // The engine's stateful steps (append mode's windowed aggregation) use the pipeline's state_store; update
    // mode's group totals (GroupState) stay in memory: nothing closes them at the end of a run yet.
    pipeline.stateStore().options().forEach(writer::option);
    return writer.queryName(pipeline.name()).trigger(trigger)
        .option("checkpointLocation", checkpoint)
        .option("minBatchesToRetain", Integer.toString(config.defaults().minBatchesToRetain()))
        .start();
  }

  /**
   * Append mode can't be re-derived over its own output: a new checkpoint reads silver from its first version, and
   * every window it finalises again would be appended beside the one already there. Update and complete mode
   * recompute groups from silver's current rows, so they need no such guard.
   */
  private void refuseAppendOverExistingWindows(Table gold, String checkpoint) {
    if (dev.sluice.ingestion.Checkpoints.isUnused(session.location(checkpoint)) && gold.exists() && !gold.latestSnapshot().files().isEmpty()) {
      throw GoldErrors.appendOverExistingWindows(pipeline.name(), goldUri, checkpoint);
    }
  }

  /**
   * Whether update mode keeps group totals in state and follows the change feed: every measure is
   * invertible (count, sum, avg) and no expression reads the clock.
   */
  private boolean followsChangeFeed() {
    if (aggregate.outputMode() != AggregateOutputMode.UPDATE) {
      return false;
    }
    List<String> expressions = new ArrayList<>(aggregate.measures());
    pipeline.columns().forEach(c -> expressions.add(c.expr()));
    pipeline.filter().ifPresent(expressions::add);
    return aggregate.measures().stream().allMatch(m -> Accumulator.invertible(Measure.parse(m).function()))
        && expressions.stream().noneMatch(e -> CLOCK.matcher(e).find());
  }

  /** Whether the change feed's first batch is silver's whole snapshot (no starting version or timestamp). */
  private boolean readsFromStart() {
    return pipeline.source().options().keySet().stream()
        .noneMatch(k -> k.equalsIgnoreCase("startingVersion") || k.equalsIgnoreCase("startingTimestamp"));
  }

  /** Joins, then columns, then the filter. */
  private StreamFrame transforms(StreamFrame frame) {
    for (JoinConfig j : pipeline.joins()) {
      StaticTable side = staticSide(j);
      String[] keys = j.on().toArray(String[]::new);
      frame = j.type() == JoinType.LEFT ? frame.leftJoin(side, keys) : frame.join(side, keys);
    }
    for (DerivedColumn c : pipeline.columns()) {
      frame = frame.withColumn(c.name(), c.expr());
    }
    if (pipeline.filter().isPresent()) {
      frame = frame.filter(pipeline.filter().get());
    }
    return frame;
  }

  private dev.sluice.ingestion.DataStreamWriter appendQuery(StreamFrame frame, Table gold) {
    String windowColumn = aggregate.windowColumn().orElseThrow(
        () -> GoldErrors.notGold(pipeline.name(), "append mode needs aggregate.window"));
    var watermark = aggregate.watermark().orElseThrow(
        () -> GoldErrors.notGold(pipeline.name(), "append mode needs aggregate.watermark"));
    List<String> aggregates = new ArrayList<>();
    List<Measure> measures = aggregate.measures().stream().map(Measure::parse).toList();
    for (int i = 0; i < measures.size(); i++) {
      Measure m = measures.get(i);
      String column = m.plainColumn();
      if (m.argument() != null && column == null) {
        column = "_gold_m" + i;
        frame = frame.withColumn(column, m.argument());
      }
      aggregates.add(m.function().sqlName() + "(" + (column == null ? "*" : "`" + column + "`") + ") AS `"
          + m.name() + "`");
    }
    Table late = session.table(lateUri());
    AppendRouter.LateRule rule = aggregate.sessionWindow().isPresent() ? AppendRouter.LateRule.sessions()
        : AppendRouter.LateRule.windows(windowMicros(true), windowMicros(false));
    frame = frame.mapBatches("gold: ledger and late changes", new AppendRouter(windowColumn, rule, late, ledger,
        watermark.maxFutureSkew()));
    List<String> keys = new ArrayList<>();
    keys.add(aggregate.sessionWindow()
        .map(w -> "session_window(`" + w.column() + "`, " + w.gapArgument() + ")")
        .orElseGet(() -> {
          WindowConfig window = aggregate.window().orElseThrow();
          return "window(`" + window.column() + "`, '" + window.size().text() + "', '" + window.slide().text() + "')";
        }));
    keys.addAll(aggregate.groupBy());
    return frame.withWatermark(watermark.column(), watermark.delay().text())
        .groupBy(keys.toArray(String[]::new)).agg(aggregates.toArray(String[]::new))
        .writeStream().outputMode("append").option("lateRowsTable", lateUri())
        .option("maxFutureSkew", watermark.maxFutureSkew().text())
        .foreachBatch(new AppendWindows(gold, pipeline.sink().partitionBy(),
            aggregate.groupBy().size()));
  }

  private String lateUri() {
    return config.tableUri(pipeline.sink().table() + "_late").toString();
  }

  private StaticTable staticSide(JoinConfig j) {
    StaticTable side;
    if (j.table().isPresent()) {
      side = session.staticTable(config.tableUri(j.table().get()).toString());
    } else if (j.format() == SourceFormat.DELTA) {
      side = session.staticTable(config.tableUri(j.path().orElseThrow()).toString());
    } else {
      side = session.staticFiles(j.path().orElseThrow(), j.format().yamlName(), schemaOf(j.schema()));
    }
    return j.refresh() == JoinRefresh.ONCE ? side.refreshNever() : side.refreshEveryBatch();
  }

  /** The Delta tables joined every batch: a new version of one means every group may have moved. */
  private List<Dimension> dimensions() {
    List<Dimension> out = new ArrayList<>();
    List<JoinConfig> joins = pipeline.joins();
    for (int i = 0; i < joins.size(); i++) {
      JoinConfig j = joins.get(i);
      if (j.refresh() != JoinRefresh.EVERY_BATCH) {
        continue;
      }
      if (j.table().isPresent()) {
        out.add(new Dimension(i, session.table(config.tableUri(j.table().get()).toString())));
      } else if (j.format() == SourceFormat.DELTA && j.path().isPresent()) {
        out.add(new Dimension(i, session.table(config.tableUri(j.path().get()).toString())));
      }
    }
    return out;
  }

  /** The window column when it is silver's own (not made by a join or a column): snapshot scans prune by it. */
  private String pruneColumn() {
    if (aggregate.window().isEmpty()) {
      return null;
    }
    String column = aggregate.window().get().column();
    boolean derived = pipeline.columns().stream().anyMatch(c -> c.name().equalsIgnoreCase(column));
    return derived ? null : column;
  }

  private long windowMicros(boolean size) {
    return aggregate.window().map(w -> (size ? w.size() : w.slide()).duration().toNanos() / 1000).orElse(0L);
  }

  private static StructType schemaOf(List<ColumnSpec> columns) {
    if (columns.isEmpty()) {
      return null;
    }
    List<StructField> fields = new ArrayList<>();
    for (ColumnSpec c : columns) {
      fields.add(StructField.of(c.name(), typeOf(c.type()), c.nullable()));
    }
    return new StructType(fields);
  }

  private static DataType typeOf(String name) {
    Matcher m = DECIMAL.matcher(name);
    if (m.matches()) {
      return DecimalType.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }
    return PrimitiveType.fromName(name).orElseThrow(
        () -> new IllegalArgumentException("joins.schema: unknown type '" + name + "'"));
  }
}
