package dev.sluice.ingestion.internal.sink.files;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.io.Writer;

/**
 * One CSV record per row, the dialect the csv source reads: {@code sep} (default {@code ,}), {@code quote}
 * ({@code "}), {@code escape} ({@code \}), {@code nullValue} (empty), an optional header line. A value with the
 * separator, a quote, the escape character or a line break is quoted (inside, quote and escape are escaped); an
 * empty string is written {@code ""} so that it does not read back as null.
 */
final class CsvLineEncoder implements TextOutputFormat.LineEncoder {
  private final boolean header;
  private final char sep;
  private final char quote;
  private final char escape;
  private final String nullValue;

  CsvLineEncoder(boolean header, char sep, char quote, char escape, String nullValue) {
    this.header = header;
    this.sep = sep;
    this.quote = quote;
    this.escape = escape;
    this.nullValue = nullValue;
  }

  /**
   * Spark's csv data source holds flat values only.
   *
   * @throws IllegalArgumentException naming a struct, array, map or binary column
   */
  static void check(StructType schema) {
    for (var f : schema.fields()) {
      DataType t = f.type();
      if (!(t instanceof PrimitiveType) && !(t instanceof dev.sluice.table.types.DecimalType) || t == PrimitiveType.BINARY) {
        throw new IllegalArgumentException("CSV data source does not support " + t.typeName() + " data type (column '"
            + f.name() + "'): write it as JSON text (to_json) or cast it to string, or use the json or parquet sink");
      }
    }
  }

  @Override
  public String header(StructType schema) {
    if (!header) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < schema.size(); i++) {
      if (i > 0) {
        sb.append(sep);
      }
      sb.append(field(schema.field(i).name()));
    }
    return sb.append('\n').toString();
  }

  @Override
  public void encode(Row row, StructType schema, Writer out) throws IOException {
    for (int i = 0; i < schema.size(); i++) {
      if (i > 0) {
        out.write(sep);
      }
      Object v = row.get(i);
      out.write(v == null ? nullValue : field(v.toString()));
    }
  }

  private String field(String text) {
    boolean quoted = text.isEmpty();
    for (int i = 0; i < text.length() && !quoted; i++) {
      char c = text.charAt(i);
      quoted = c == sep || c == quote || c == escape || c == '\n' || c == '\r';
    }
    if (!quoted) {
      return text;
    }
    StringBuilder sb = new StringBuilder(text.length() + 2).append(quote);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == quote || c == escape) {
        sb.append(escape);
      }
      sb.append(c);
    }
    return sb.append(quote).toString();
  }
}
