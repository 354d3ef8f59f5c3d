package dev.sluice.bronze;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchTransformer;
import dev.sluice.table.data.AbstractRow;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.IntStream;
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

  private static final int SLICE_ROWS = 16_384;

  private final String pipeline;
  private final IngestedFiles ingested;
  private final QuarantineMarks marks;

  /** A step for the schema only: it is never applied. */
  LineageStep(String pipeline) {
    this(pipeline, null, null);
  }

  /**
   * @param ingested the files to skip
   * @param marks where the quarantined rows' positions of each batch are left for the writer, or null
   */
  LineageStep(String pipeline, IngestedFiles ingested, QuarantineMarks marks) {
    this.pipeline = pipeline;
    this.ingested = ingested;
    this.marks = marks;
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
    BitSet kept = new BitSet(batch.size());
    Set<String> skipped = new java.util.TreeSet<>();
    BitSet quarantinedAt; // positions in the output batch
    if (ingested.isEmpty()) {
      kept.set(0, batch.size()); // nothing to skip: only the quarantined rows are looked for
      quarantinedAt = quarantined(batch, error);
    } else {
      quarantinedAt = new BitSet();
      int i = 0;
      int at = 0;
      for (Row r : batch.project(error, source)) {
        if (ingested.contains((String) r.get(source))) {
          skipped.add((String) r.get(source));
        } else {
          kept.set(i);
          if (!r.isNullAt(error)) {
            quarantinedAt.set(at);
          }
          at++;
        }
        i++;
      }
    }
    long quarantined = quarantinedAt.cardinality();
    // Views, not copies: the rows are read once more by the bronze writer, which shapes them for the table.
    Instant ingestedAt = context.batchTimestamp();
    Long batchId = context.batchId();
    Batch out = batch.keep(kept).map(schema, (r, position) -> new Stamped(r, ingestedAt, batchId));
    long deduplicated = batch.size() - out.size();
    Ledger ledger = new Ledger(batch.size(), out.size() - quarantined, quarantined, deduplicated);
    ledger.metrics().forEach(context::count);
    if (marks != null) {
      marks.mark(context.batchId(), out.size(), quarantinedAt);
    }
    if (!skipped.isEmpty()) {
      context.count(SKIPPED_FILES, skipped.size());
      LOG.info("Pipeline '{}' batch {}: skipped {} rows of {} files already in the table: {}", pipeline,
          context.batchId(), deduplicated, skipped.size(), skipped);
    }
    return out;
  }

  /**
   * The positions of the rows with a corrupt-record error. A batch held in the heap is looked through in slices on
   * both cores: the rows are scattered over the heap, and one thread waiting on memory for each took a tenth of
   * bronze's time.
   */
  static BitSet quarantined(Batch batch, int error) {
    BitSet out = new BitSet();
    if (batch.spilled() || batch.size() < 2 * SLICE_ROWS) {
      int i = 0;
      for (Row r : batch.project(error)) {
        if (!r.isNullAt(error)) {
          out.set(i);
        }
        i++;
      }
      return out;
    }
    List<Row> rows = batch.rows();
    int slices = (rows.size() + SLICE_ROWS - 1) / SLICE_ROWS;
    IntStream.range(0, slices).parallel().mapToObj(s -> {
      BitSet found = new BitSet();
      for (int i = s * SLICE_ROWS, end = Math.min(rows.size(), i + SLICE_ROWS); i < end; i++) {
        if (!rows.get(i).isNullAt(error)) {
          found.set(i);
        }
      }
      return found;
    }).toList().forEach(out::or);
    return out;
  }

  /** A source row with {@code _ingested_at} and {@code _batch_id} after its values; compares by value. */
  private static final class Stamped extends AbstractRow {
    private final Row row;
    private final int size;
    private final Instant ingestedAt;
    private final Long batchId;

    Stamped(Row row, Instant ingestedAt, Long batchId) {
      this.row = row;
      this.size = row.size();
      this.ingestedAt = ingestedAt;
      this.batchId = batchId;
    }

    @Override
    public int size() {
      return size + 2;
    }

    @Override
    public Object get(int ordinal) {
      if (ordinal < size) {
        return row.get(ordinal);
      }
      if (ordinal == size) {
        return ingestedAt;
      }
      Objects.checkIndex(ordinal, size + 2);
      return batchId;
    }
  }
}
