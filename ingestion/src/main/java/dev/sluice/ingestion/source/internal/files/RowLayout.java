package dev.sluice.ingestion.source.internal.files;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.List;
import java.util.Optional;

/**
 * The columns a files source returns. With a declared schema, as Spark does: exactly the declared columns, where
 * the corrupt-record column ({@code columnNameOfCorruptRecord}, default {@code _corrupt_record}) and
 * {@code _corrupt_error} are filled by the source, and only when declared (as string columns); the others are
 * the data columns the parsers fill; the rescued data column ({@code rescuedDataColumn}) and {@code _source} (the
 * file's URI) follow when asked for. With an inferred schema: the data columns, the rescued data and source
 * columns when asked for, then always {@code _corrupt_record} and {@code _corrupt_error}. Corrupt columns are null on good rows and hold the raw line and what was
 * wrong on malformed ones.
 */
final class RowLayout {
  static final String SOURCE = "_source";
  static final String CORRUPT_RECORD = "_corrupt_record";
  static final String CORRUPT_ERROR = "_corrupt_error";

  private final StructType data;
  private final StructType schema;
  private final int[] dataPositions;
  private final int recordPosition;
  private final int errorPosition;
  private final int rescuedPosition;
  private final int sourcePosition;

  /** An inferred-schema layout (corrupt columns added) without rescued data. */
  RowLayout(StructType data, boolean includeSource) {
    this(data, false, includeSource, Optional.empty(), CORRUPT_RECORD);
  }

  /**
   * @param declared whether {@code schema} was declared by the user (else it was inferred and holds data only)
   * @throws IllegalArgumentException for a column name the source adds itself, or a corrupt column not of string type
   */
  RowLayout(StructType schema, boolean declared, boolean includeSource, Optional<String> rescuedColumn,
      String corruptColumn) {
    if (!declared) {
      checkAbsent(schema, corruptColumn);
      checkAbsent(schema, CORRUPT_ERROR);
    }
    StructType out = schema;
    if (includeSource && out.indexOf(SOURCE) >= 0) {
      throw reserved(SOURCE);
    }
    if (rescuedColumn.isPresent() && (out.indexOf(rescuedColumn.get()) >= 0
        || List.of(SOURCE, corruptColumn, CORRUPT_ERROR).contains(rescuedColumn.get()))) {
      throw new IllegalArgumentException("Option rescuedDataColumn of the files source names '" + rescuedColumn.get()
          + "', which is already a column of the source; choose another name, or rename the column in the schema");
    }
    this.rescuedPosition = rescuedColumn.isPresent() ? out.size() : -1;
    if (rescuedColumn.isPresent()) {
      out = out.add(rescuedColumn.get(), PrimitiveType.STRING);
    }
    this.sourcePosition = includeSource ? out.size() : -1;
    if (includeSource) {
      out = out.add(SOURCE, PrimitiveType.STRING);
    }
    if (!declared) {
      out = out.add(corruptColumn, PrimitiveType.STRING).add(CORRUPT_ERROR, PrimitiveType.STRING);
    }
    this.schema = out;
    this.recordPosition = stringColumn(out, corruptColumn);
    this.errorPosition = stringColumn(out, CORRUPT_ERROR);
    StructType dataOnly = StructType.empty();
    int[] positions = new int[out.size()];
    int n = 0;
    for (int i = 0; i < out.size(); i++) {
      if (i != recordPosition && i != errorPosition && i != rescuedPosition && i != sourcePosition) {
        dataOnly = dataOnly.add(out.field(i));
        positions[n++] = i;
      }
    }
    this.data = dataOnly;
    this.dataPositions = java.util.Arrays.copyOf(positions, n);
  }

  private static String checkAbsent(StructType data, String name) {
    if (data.indexOf(name) >= 0) {
      throw reserved(name);
    }
    return name;
  }

  private static IllegalArgumentException reserved(String name) {
    return new IllegalArgumentException("The schema of the files source has a column named '" + name
        + "', which the source adds itself; rename the column in the schema");
  }

  private static int stringColumn(StructType schema, String name) {
    int i = schema.indexOf(name);
    if (i >= 0) {
      StructField f = schema.field(i);
      if (!f.type().equals(PrimitiveType.STRING)) {
        throw new IllegalArgumentException("Column '" + f.name() + "' of the files source's schema holds corrupt"
            + " records, so it must be of type string, not " + f.type().typeName() + "; declare it as string");
      }
    }
    return i;
  }

  /** The whole row the source returns. */
  StructType schema() {
    return schema;
  }

  /** The columns the parsers fill, in schema order (without the corrupt columns). */
  StructType dataSchema() {
    return data;
  }

  /** Whether a malformed record keeps its raw text or error in a column; else it is an all-null row. */
  boolean keepsCorrupt() {
    return recordPosition >= 0 || errorPosition >= 0;
  }

  /** A row of {@code data} (values of {@link #dataSchema()}), {@code raw} and {@code error} null on good rows. */
  Row row(Object[] data, String source, String raw, String error) {
    return row(data, null, source, raw, error);
  }

  /** Same, with the rescued data (a JSON object or null; dropped when the layout has no rescued column). */
  Row row(Object[] data, String rescued, String source, String raw, String error) {
    Object[] values = new Object[schema.size()];
    for (int i = 0; i < Math.min(dataPositions.length, data.length); i++) {
      values[dataPositions[i]] = data[i];
    }
    set(values, rescuedPosition, rescued);
    set(values, sourcePosition, source);
    set(values, recordPosition, raw);
    set(values, errorPosition, error);
    return Row.of(values);
  }

  private static void set(Object[] values, int position, Object value) {
    if (position >= 0) {
      values[position] = value;
    }
  }
}
