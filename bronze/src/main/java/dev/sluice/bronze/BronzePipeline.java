package dev.sluice.bronze;

import dev.sluice.config.KafkaSourceConfig;
import dev.sluice.config.Layer;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SchemaEvolution;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.SourceConfig;
import dev.sluice.config.SourceFormat;
import dev.sluice.ingestion.DataStreamReader;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamFrame;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.Trigger;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import dev.sluice.table.Table;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.Locale;

/**
 * A bronze pipeline: input files (json, csv, parquet) or Kafka topics appended to a bronze Delta table with lineage
 * columns ({@code _ingested_at}: the batch timestamp, {@code _source}: the file's URI or the record's
 * {@code topic/partition/offset}, {@code _batch_id}), exactly once. A Kafka record's value is parsed by
 * {@code value_format} with the same rules as a file's line ({@link KafkaValues}); its key and timestamp land in
 * {@code _kafka_key} and {@code _kafka_timestamp}. A new Kafka pipeline starts at the earliest offsets unless
 * {@code starting_offsets} says otherwise: bronze keeps everything the topics still hold.
 *
 * <p>What doesn't fit the schema follows {@code source.schema_evolution}: {@code rescue} (default) keeps unknown
 * fields and wrong-typed values in a {@code _rescued_data} JSON column; {@code addNewColumns} adds unknown fields
 * as nullable string columns; {@code failOnNewColumns} fails the batch naming the field and the file. Lines that
 * can't be parsed at all (and, under the last two policies, rows with a wrong-typed value) go to
 * {@code <table>_quarantine} with their raw text, the error, the file, the batch id and timestamp. Each batch's
 * ledger ({@code ledger.rowsIn = ledger.written + ledger.quarantined}; deduplicated, late, filtered and dropped
 * are 0) is in the bronze commit's {@code operationMetrics} and in the query's progress
 * ({@code observedMetrics}).
 *
 * <p>A new checkpoint over a table that already has rows (the old checkpoint was deleted to reprocess) skips the
 * files the table already holds rows of, counting their rows as deduplicated ({@link IngestedFiles}): only new
 * files land. To ingest everything again, delete the table folder, checkpoints included.
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
    URI tableUri = config.tableUri(pipeline.sink().table());
    URI quarantineUri = config.tableUri(pipeline.sink().table() + "_quarantine");
    Table table = session.table(tableUri.toString());
    Table quarantine = session.table(quarantineUri.toString());
    QuarantineMarks marks = new QuarantineMarks();
    BronzeWriter writer = new BronzeWriter(pipeline.name(), table, quarantine, pipeline.sink().partitionBy(),
        source.schemaEvolution(), marks);
    String checkpoint = tableUri + "/_checkpoints/" + pipeline.name();
    StreamFrame input;
    IngestedFiles ingested;
    if (source.format() == SourceFormat.KAFKA) {
      input = kafka(session, pipeline);
      ingested = IngestedFiles.none(); // Kafka offsets of a new checkpoint are not files the table may already hold
    } else {
      String path = source.path().orElseThrow(() -> new IllegalArgumentException("Pipeline '" + pipeline.name()
          + "': a bronze source needs source.path, the folder of its input files"));
      ingested = IngestedFiles.forCheckpoint(pipeline.name(), session.location(checkpoint), table, quarantine);
      input = reader(session, pipeline).load(path);
    }
    return input
        .mapBatches("bronze lineage and ledger", new LineageStep(pipeline.name(), ingested, marks))
        .writeStream()
        .queryName(pipeline.name())
        .trigger(trigger)
        .option("checkpointLocation", checkpoint)
        .option("minBatchesToRetain", Integer.toString(config.defaults().minBatchesToRetain()))
        .foreachBatch(writer)
        .start();
  }

  /**
   * The bronze table's schema as the pipeline will write it, when the config declares {@code source.schema};
   * empty when the schema is inferred from the files at the first run.
   *
   * @throws IllegalArgumentException for a declared column bronze adds itself
   */
  public static Optional<StructType> tableSchema(PipelineConfig pipeline) {
    if (pipeline.source().schema().isEmpty() && pipeline.source().format() != SourceFormat.KAFKA) {
      return Optional.empty();
    }
    if (pipeline.source().format() == SourceFormat.KAFKA) {
      return Optional.of(new LineageStep(pipeline.name()).outputSchema(KafkaValues.schema(kafkaData(pipeline))));
    }
    StructType read = SourceSchemas.of(pipeline.name(), pipeline.source().schema());
    for (String added : List.of(BronzeColumns.RESCUED, BronzeColumns.SOURCE, BronzeColumns.CORRUPT_RECORD,
        BronzeColumns.CORRUPT_ERROR)) {
      read = read.add(added, PrimitiveType.STRING);
    }
    return Optional.of(new LineageStep(pipeline.name()).outputSchema(read));
  }

  /** The Kafka records of the pipeline's topics, their values parsed into the declared columns. */
  private static StreamFrame kafka(SluiceSession session, PipelineConfig pipeline) {
    SourceConfig source = pipeline.source();
    KafkaSourceConfig k = source.kafka().orElseThrow();
    DataStreamReader reader = session.readStream().format("kafka")
        .option("startingOffsets", k.startingOffsets().orElse("earliest"))
        .options(source.options())
        .option("kafka.bootstrap.servers", k.bootstrapServers())
        .option("subscribe", String.join(",", k.topics()));
    k.maxOffsetsPerTrigger().ifPresent(n -> reader.option("maxOffsetsPerTrigger", n));
    return reader.load().mapBatches("bronze kafka values", new KafkaValues(kafkaData(pipeline), k.valueFormat(),
        source.schemaEvolution() == SchemaEvolution.RESCUE));
  }

  /** The columns a Kafka value is parsed into: the declared ones, or {@code value} for text without a schema. */
  private static StructType kafkaData(PipelineConfig pipeline) {
    if (pipeline.source().schema().isEmpty()) {
      return StructType.empty().add("value", PrimitiveType.STRING);
    }
    return SourceSchemas.of(pipeline.name(), pipeline.source().schema());
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
