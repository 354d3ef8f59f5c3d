package dev.sluice.bronze;

import dev.sluice.config.Layer;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SchemaEvolution;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.SourceConfig;
import dev.sluice.config.SourceFormat;
import dev.sluice.ingestion.DataStreamReader;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.Trigger;
import dev.sluice.table.types.PrimitiveType;
import java.net.URI;
import java.util.Locale;

/**
 * A bronze pipeline: input files (json, csv, parquet) appended to a bronze Delta table with lineage columns
 * ({@code _ingested_at}: the batch timestamp, {@code _source}: the file's URI, {@code _batch_id}), exactly once.
 *
 * <p>What doesn't fit the schema follows {@code source.schema_evolution}: {@code rescue} (default) keeps unknown
 * fields and wrong-typed values in a {@code _rescued_data} JSON column; {@code addNewColumns} adds unknown fields
 * as nullable string columns; {@code failOnNewColumns} fails the batch naming the field and the file. Lines that
 * can't be parsed at all (and, under the last two policies, rows with a wrong-typed value) go to
 * {@code <table>_quarantine} with their raw text, the error, the file, the batch id and timestamp. Each batch's
 * ledger ({@code ledger.rowsIn = ledger.written + ledger.quarantined}; deduplicated, late, filtered and dropped
 * are 0) is in the bronze commit's {@code operationMetrics} and in the query's progress
 * ({@code observedMetrics}).
 */
public final class BronzePipeline {
  private BronzePipeline() {}

  /**
   * Starts the pipeline's query, named after the pipeline, with its checkpoint in
   * {@code <sink table>/_checkpoints/<pipeline>}.
   *
   * @throws IllegalArgumentException when the pipeline is not a bronze one, or its source can't be read
   */
  public static StreamingQuery start(SluiceSession session, SluiceConfig config, PipelineConfig pipeline,
      Trigger trigger) {
    if (pipeline.layer() != Layer.BRONZE) {
      throw new IllegalArgumentException("Pipeline '" + pipeline.name() + "' is a " + pipeline.layer().name()
          .toLowerCase(Locale.ROOT) + " pipeline; BronzePipeline runs bronze ones only");
    }
    SourceConfig source = pipeline.source();
    if (source.format() == SourceFormat.DELTA) {
      throw new IllegalArgumentException("Pipeline '" + pipeline.name() + "': a bronze source reads files (json, csv"
          + " or parquet), not delta; fix source.format");
    }
    String path = source.path().orElseThrow(() -> new IllegalArgumentException("Pipeline '" + pipeline.name()
        + "': a bronze source needs source.path, the folder of its input files"));
    URI tableUri = config.tableUri(pipeline.sink().table());
    URI quarantineUri = config.tableUri(pipeline.sink().table() + "_quarantine");
    BronzeWriter writer = new BronzeWriter(pipeline.name(), session.table(tableUri.toString()),
        session.table(quarantineUri.toString()), pipeline.sink().partitionBy(), source.schemaEvolution());
    return reader(session, pipeline).load(path)
        .mapBatches("bronze lineage and ledger", new LineageStep(pipeline.name()))
        .writeStream()
        .queryName(pipeline.name())
        .trigger(trigger)
        .option("checkpointLocation", tableUri + "/_checkpoints/" + pipeline.name())
        .option("minBatchesToRetain", Integer.toString(config.defaults().minBatchesToRetain()))
        .foreachBatch(writer)
        .start();
  }

  private static DataStreamReader reader(SluiceSession session, PipelineConfig pipeline) {
    SourceConfig source = pipeline.source();
    DataStreamReader reader = session.readStream().format(source.format().yamlName()).options(source.options())
        .option("includeSourceColumn", "true")
        .option("rescuedDataColumn", BronzeColumns.RESCUED)
        // Outside rescue mode a wrong-typed value has no column to go to: its row stays corrupt (quarantined).
        .option("rescueTypeMismatches", source.schemaEvolution() == SchemaEvolution.RESCUE);
    if (!source.schema().isEmpty()) {
      // With a declared schema the files source fills only the corrupt columns declared (as Spark does).
      reader.schema(SourceSchemas.of(pipeline.name(), source.schema())
          .add(BronzeColumns.CORRUPT_RECORD, PrimitiveType.STRING).add(BronzeColumns.CORRUPT_ERROR, PrimitiveType.STRING));
    } else if (source.format() != SourceFormat.PARQUET
        && source.options().keySet().stream().noneMatch(k -> k.equalsIgnoreCase("inferSchema"))) {
      reader.option("inferSchema", "true");
    }
    return reader;
  }
}
