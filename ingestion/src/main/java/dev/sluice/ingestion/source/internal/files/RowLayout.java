package dev.sluice.ingestion.source.internal.files;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;

/**
 * The columns a files source returns: the data columns, then {@code _source} (the file's URI) when
 * asked for, then always {@code _corrupt_record} and {@code _corrupt_error}, which are null on good
 * rows and hold the raw line and what was wrong on malformed ones.
 */
final class RowLayout {
  static final String SOURCE = "_source";
  static final String CORRUPT_RECORD = "_corrupt_record";
  static final String CORRUPT_ERROR = "_corrupt_error";

  private final int dataWidth;
  private final boolean includeSource;
  private final StructType schema;

  RowLayout(StructType data, boolean includeSource) {
    for (String reserved : new String[] {SOURCE, CORRUPT_RECORD, CORRUPT_ERROR}) {
      if (data.indexOf(reserved) >= 0 && (includeSource || !reserved.equals(SOURCE))) {
        throw new IllegalArgumentException("The schema of the files source has a column named '" + reserved
            + "', which the source adds itself; rename the column in the schema");
      }
    }
    StructType out = data;
    if (includeSource) {
      out = out.add(SOURCE, PrimitiveType.STRING);
    }
    this.schema = out.add(CORRUPT_RECORD, PrimitiveType.STRING).add(CORRUPT_ERROR, PrimitiveType.STRING);
    this.dataWidth = data.size();
    this.includeSource = includeSource;
  }

  StructType schema() {
    return schema;
  }

  /** A row of {@code data} (the first {@code dataWidth} values are used), {@code raw} and {@code error} null on good rows. */
  Row row(Object[] data, String source, String raw, String error) {
    Object[] values = new Object[schema.size()];
    System.arraycopy(data, 0, values, 0, Math.min(dataWidth, data.length));
    int i = dataWidth;
    if (includeSource) {
      values[i++] = source;
    }
    values[i++] = raw;
    values[i] = error;
    return Row.of(values);
  }
}
