package dev.sluice.bronze;

import dev.sluice.ingestion.RowLedger;
import dev.sluice.config.SchemaEvolution;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchContext;
import dev.sluice.ingestion.BatchFunction;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes one bronze batch: rows the source could not parse go to the quarantine table, the others to the bronze
 * table, each append with {@code txn(appId, batchId)} ({@code <query id>:quarantine}, then {@code <query id>}) so
 * that a batch re-run after a crash writes neither twice, and a new checkpoint (new query id) is never taken for
 * the old one. The bronze commit always happens (even with no row) and
 * carries the batch's ledger in its {@code operationMetrics}.
 */
final class BronzeWriter implements BatchFunction {
  private final String pipeline;
  private final Table table;
  private final Table quarantine;
  private final List<String> partitionBy;
  private final SchemaEvolution policy;
  private final BronzeRows shaper;
  private final QuarantineMarks marks;

  /** @param marks where the lineage step leaves each batch's quarantined rows (see {@link QuarantineMarks}) */
  BronzeWriter(String pipeline, Table table, Table quarantine, List<String> partitionBy, SchemaEvolution policy,
      QuarantineMarks marks) {
    this.pipeline = pipeline;
    this.table = table;
    this.quarantine = quarantine;
    this.partitionBy = List.copyOf(partitionBy);
    this.policy = policy;
    this.shaper = new BronzeRows(pipeline, policy, table.uri().toString());
    this.marks = marks;
  }

  @Override
  public void call(Batch batch, long batchId) {
    throw new UnsupportedOperationException("BronzeWriter writes with the query's id: call(batch, context)");
  }

  @Override
  public boolean call(Batch batch, BatchContext context) {
    long batchId = context.batchId();
    StructType in = batch.schema();
    int error = in.indexOf(BronzeColumns.CORRUPT_ERROR);
    List<Row> bad = new ArrayList<>();
    BitSet quarantined = marks.take(batchId, batch.size());
    if (quarantined == null) {
      quarantined = LineageStep.quarantined(batch, error);
    }
    Batch goodRows = batch;
    if (!quarantined.isEmpty()) {
      for (int p = quarantined.nextSetBit(0); p >= 0; p = quarantined.nextSetBit(p + 1)) {
        bad.add(batch.rows().get(p));
      }
      goodRows = batch.without(quarantined); // a view: the shaped rows are the only ones collected
    }
    List<Row> good = goodRows.rows();
    long deduplicated = context.metrics().getOrDefault(RowLedger.DEDUPLICATED, 0L);
    Ledger ledger = new Ledger(batch.size() + deduplicated, good.size(), bad.size(), deduplicated);
    createIfMissing(in);
    BronzeRows.Shaped shaped = shaper.shape(in, goodRows, table.latestSnapshot().schema());
    if (!bad.isEmpty()) {
      writeQuarantine(in, bad, context);
    }
    Map<String, Long> metrics = new LinkedHashMap<>(context.metrics());
    metrics.putAll(ledger.metrics());
    return !table.newAppend().txn(context.appId(), batchId).schema(shaped.schema()).rows(shaped.rows())
        .mergeSchema(policy == SchemaEvolution.ADD_NEW_COLUMNS).operation("STREAMING UPDATE")
        .metric("batchId", batchId).metrics(metrics).commit().skipped();
  }

  private void createIfMissing(StructType in) {
    if (table.exists()) {
      return;
    }
    StructType schema = shaper.baseSchema(in);
    for (String column : partitionBy) {
      if (schema.indexOf(column) < 0) {
        throw new IllegalArgumentException("Pipeline '" + pipeline + "': sink.partition_by names '" + column
            + "', which is not a column of bronze table " + table.uri() + "; its columns are " + schema.fieldNames()
            + ". Fix partition_by.");
      }
    }
    table.create(schema).partitionBy(partitionBy.toArray(String[]::new)).ifNotExists().commit();
  }

  private void writeQuarantine(StructType in, List<Row> bad, BatchContext context) {
    int raw = in.indexOf(BronzeColumns.CORRUPT_RECORD);
    int error = in.indexOf(BronzeColumns.CORRUPT_ERROR);
    int source = in.indexOf(BronzeColumns.SOURCE);
    int batch = in.indexOf(BronzeColumns.BATCH_ID);
    int ingestedAt = in.indexOf(BronzeColumns.INGESTED_AT);
    List<Row> rows = new ArrayList<>(bad.size());
    for (Row r : bad) {
      rows.add(Row.of(r.get(raw), r.get(error), r.get(source), r.get(batch), r.get(ingestedAt)));
    }
    if (!quarantine.exists()) {
      quarantine.create(BronzeColumns.QUARANTINE).ifNotExists().commit();
    }
    quarantine.newAppend().txn(context.appId("quarantine"), context.batchId()).rows(rows).operation("STREAMING UPDATE")
        .metric("batchId", context.batchId()).commit();
  }
}
