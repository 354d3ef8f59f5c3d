package dev.sluice.bronze;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchTransformer;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stamps every row of a batch with {@code _ingested_at} (the batch timestamp, the same when the batch is re-run)
 * and {@code _batch_id}, and counts the batch's ledger so that it reaches the query's progress. Rows of files the
 * table held before its checkpoint started ({@link IngestedFiles}) are left out and counted as deduplicated.
 */
final class LineageStep implements BatchTransformer {
  /** What the files source adds after the data columns. */
  private static final Set<String> SOURCE_ADDED = Set.of(BronzeColumns.RESCUED, BronzeColumns.SOURCE,
      BronzeColumns.CORRUPT_RECORD, BronzeColumns.CORRUPT_ERROR);

  static final String SKIPPED_FILES = "bronze.filesAlreadyIngested";
  private static final Logger LOG = LoggerFactory.getLogger(LineageStep.class);

  private final String pipeline;
  private final IngestedFiles ingested;

  /** @param ingested the files to skip, or null where only the schema is asked for */
  LineageStep(String pipeline, IngestedFiles ingested) {
    this.pipeline = pipeline;
    this.ingested = ingested;
  }

  @Override
  public StructType outputSchema(StructType input) {
    for (String name : SOURCE_ADDED) {
      if (input.indexOf(name) < 0) {
        throw new IllegalArgumentException("Pipeline '" + pipeline + "': the files source did not add column '" + name
            + "'; bronze reads with includeSourceColumn=true and rescuedDataColumn=" + BronzeColumns.RESCUED);
      }
    }
    for (String name : input.fieldNames()) {
      if (!SOURCE_ADDED.contains(name)) {
        SourceSchemas.checkName(pipeline, name);
      }
    }
    return input.add(BronzeColumns.INGESTED_AT, PrimitiveType.TIMESTAMP).add(BronzeColumns.BATCH_ID, PrimitiveType.LONG);
  }

  @Override
  public Batch apply(Batch batch, Context context) {
    StructType schema = outputSchema(batch.schema());
    int error = batch.schema().indexOf(BronzeColumns.CORRUPT_ERROR);
    int source = batch.schema().indexOf(BronzeColumns.SOURCE);
    Batch.Builder out = Batch.builder(schema);
    long quarantined = 0;
    Set<String> skipped = new java.util.TreeSet<>();
    for (Row r : batch.rows()) {
      if (ingested.contains((String) r.get(source))) {
        skipped.add((String) r.get(source));
        continue;
      }
      Object[] values = new Object[schema.size()]; // one copy of the row (not toArray and then a longer copy)
      for (int i = 0; i < values.length - 2; i++) {
        values[i] = r.get(i);
      }
      values[values.length - 2] = context.batchTimestamp();
      values[values.length - 1] = context.batchId();
      out.add(Row.of(values));
      quarantined += r.isNullAt(error) ? 0 : 1;
    }
    long deduplicated = batch.size() - out.size();
    Ledger ledger = new Ledger(batch.size(), out.size() - quarantined, quarantined, deduplicated);
    ledger.metrics().forEach(context::count);
    if (!skipped.isEmpty()) {
      context.count(SKIPPED_FILES, skipped.size());
      LOG.info("Pipeline '{}' batch {}: skipped {} rows of {} files already in the table: {}", pipeline,
          context.batchId(), deduplicated, skipped.size(), skipped);
    }
    return out.build();
  }
}
