package dev.sluice.bronze;

import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.util.List;

/** The names bronze adds to its tables and the columns the files source adds to each row. */
final class BronzeColumns {
  static final String INGESTED_AT = "_ingested_at";
  static final String SOURCE = "_source";
  static final String BATCH_ID = "_batch_id";
  static final String RESCUED = "_rescued_data";
  static final String CORRUPT_RECORD = "_corrupt_record";
  static final String CORRUPT_ERROR = "_corrupt_error";

  /** Columns a declared or inferred schema may not have, because bronze or the source adds them. */
  static final List<String> RESERVED = List.of(INGESTED_AT, SOURCE, BATCH_ID, RESCUED, CORRUPT_RECORD, CORRUPT_ERROR);

  /** The lineage columns, in table order. */
  static final StructType LINEAGE = StructType.empty()
      .add(INGESTED_AT, PrimitiveType.TIMESTAMP)
      .add(SOURCE, PrimitiveType.STRING)
      .add(BATCH_ID, PrimitiveType.LONG);

  /** The quarantine table: lines that could not be parsed at all. */
  static final StructType QUARANTINE = StructType.empty()
      .add("raw", PrimitiveType.STRING)
      .add("error", PrimitiveType.STRING)
      .add("source", PrimitiveType.STRING)
      .add("batch_id", PrimitiveType.LONG)
      .add("ingested_at", PrimitiveType.TIMESTAMP);

  private BronzeColumns() {}
}
