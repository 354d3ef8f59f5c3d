package dev.sluice.ingestion.source.internal.files;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;

/**
 * The columns a files source returns: the data columns, then the rescued data column (option
 * {@code rescuedDataColumn}) and {@code _source} (the file's URI) when asked for, then always
 * {@code _corrupt_record} and {@code _corrupt_error}, which are null on good rows and hold the raw line and
 * what was wrong on malformed ones.
 */
final class RowLayout {
  static final String SOURCE = "_source";
  static final String CORRUPT_RECORD = "_corrupt_record";
  static final String CORRUPT_ERROR = "_corrupt_error";

  private final int dataWidth;
  private final boolean includeSource;
  private final boolean includeRescued;
  private final StructType schema;

  RowLayout(StructType data, boolean includeSource) {
    this(data, includeSource, java.util.Optional.empty());
  }

  RowLayout(StructType data, boolean includeSource, java.util.Optional<String> rescuedColumn) {
    for (String reserved : new String[] {SOURCE, CORRUPT_RECORD, CORRUPT_ERROR}) {
      if (data.indexOf(reserved) >= 0 && (includeSource || !reserved.equals(SOURCE))) {
        throw new IllegalArgumentException("The schema of the files source has a column named '" + reserved
            + "', which the source adds itself; rename the column in the schema");
      }
    }
    if (rescuedColumn.isPresent() && (data.indexOf(rescuedColumn.get()) >= 0
        || java.util.List.of(SOURCE, CORRUPT_RECORD, CORRUPT_ERROR).contains(rescuedColumn.get()))) {
      throw new IllegalArgumentException("Option rescuedDataColumn of the files source names '" + rescuedColumn.get()
          + "', which is already a column of the source; choose another name, or rename the column in the schema");
    }
    StructType out = data;
    if (rescuedColumn.isPresent()) {
      out = out.add(rescuedColumn.get(), PrimitiveType.STRING);
    }
    if (includeSource) {
      out = out.add(SOURCE, PrimitiveType.STRING);
    }
    this.schema = out.add(CORRUPT_RECORD, PrimitiveType.STRING).add(CORRUPT_ERROR, PrimitiveType.STRING);
    this.dataWidth = data.size();
    this.includeSource = includeSource;
    this.includeRescued = rescuedColumn.isPresent();
  }

  StructType schema() {
    return schema;
  }

  /** A row of {@code data} (the first {@code dataWidth} values are used), {@code raw} and {@code error} null on good rows. */
  Row row(Object[] data, String source, String raw, String error) {
    return row(data, null, source, raw, error);
  }

  /** Same, with the rescued data (a JSON object or null; dropped when the layout has no rescued column). */
  Row row(Object[] data, String rescued, String source, String raw, String error) {
    Object[] values = new Object[schema.size()];
    System.arraycopy(data, 0, values, 0, Math.min(dataWidth, data.length));
    int i = dataWidth;
    if (includeRescued) {
      values[i++] = rescued;
    }
    if (includeSource) {
      values[i++] = source;
    }
    values[i++] = raw;
    values[i] = error;
    return Row.of(values);
  }
}
