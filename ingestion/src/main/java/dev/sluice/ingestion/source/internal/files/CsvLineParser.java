package dev.sluice.ingestion.source.internal.files;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.sluice.ingestion.source.internal.files.FileSourceOptions.CsvOptions;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;

/**
 * One CSV record per line, matched to the schema by position (as Spark does with a given schema).
 * An unquoted field equal to {@code nullValue} is null; a quoted one never is. With rescued data, fields
 * beyond the schema's are kept there under their header name (or {@code _c<index>}, Spark's name, without a
 * header), and so are values that don't fit their column when type mismatches are rescued; fewer fields
 * than the schema's still make the record corrupt (a truncated line can't be matched by position).
 */
final class CsvLineParser implements RecordParser {
  private final StructType schema;
  private final CsvOptions options;
  private final FileSourceOptions.Rescue rescue;
  private List<Field> header = List.of();

  CsvLineParser(StructType schema, CsvOptions options) {
    this(schema, options, FileSourceOptions.Rescue.OFF);
  }

  CsvLineParser(StructType schema, CsvOptions options, FileSourceOptions.Rescue rescue) {
    this.schema = schema;
    this.options = options;
    this.rescue = rescue;
  }

  @Override
  public void header(String line) {
    try {
      header = split(line, options);
    } catch (TextValues.BadValue e) {
      header = List.of(); // extra fields are then named by position
    }
  }

  /** A field's text and whether it was quoted. */
  record Field(String text, boolean quoted) {}

  @Override
  public Parsed parse(String line) {
    Object[] values = new Object[schema.size()];
    List<Field> fields;
    try {
      fields = split(line, options);
    } catch (TextValues.BadValue e) {
      return new Parsed(values, List.of(e.getMessage()));
    }
    List<String> errors = new ArrayList<>();
    RescuedData rescued = rescue.enabled() ? new RescuedData(rescue.typeMismatches()) : null;
    if (fields.size() < values.length || (fields.size() > values.length && rescued == null)) {
      errors.add("expected " + values.length + " fields " + schema.fieldNames() + " but found " + fields.size());
    }
    for (int i = 0; i < fields.size(); i++) {
      Field f = fields.get(i);
      if (!f.quoted() && f.text().equals(options.nullValue())) {
        continue;
      }
      if (i >= values.length) {
        if (rescued != null) {
          rescued.unknown(extraName(i), TextNode.valueOf(f.text()));
        }
        continue;
      }
      try {
        values[i] = TextValues.parse(f.text(), schema.field(i).type(), schema.field(i).name());
      } catch (TextValues.BadValue e) {
        if (rescued == null || !rescued.mismatch(schema.field(i).name(), TextNode.valueOf(f.text()))) {
          errors.add(e.getMessage());
        }
      }
    }
    return new Parsed(values, errors, rescued == null ? null : rescued.json());
  }

  private String extraName(int index) {
    return index < header.size() && !header.get(index).text().isEmpty() ? header.get(index).text() : "_c" + index;
  }

  @Override
  public boolean skip(String line) {
    return line.isEmpty();
  }

  /**
   * Splits a line into fields. Inside quotes, a doubled quote or an escaped character stands for itself.
   *
   * @throws TextValues.BadValue if a quote is not closed
   */
  static List<Field> split(String line, CsvOptions o) throws TextValues.BadValue {
    List<Field> out = new ArrayList<>();
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (true) {
      sb.setLength(0);
      boolean quoted = i < line.length() && line.charAt(i) == o.quote();
      if (quoted) {
        i++;
        boolean closed = false;
        while (i < line.length()) {
          char c = line.charAt(i);
          if (c == o.escape() && c != o.quote() && i + 1 < line.length()) {
            sb.append(line.charAt(i + 1));
            i += 2;
          } else if (c == o.quote() && i + 1 < line.length() && line.charAt(i + 1) == o.quote()) {
            sb.append(c);
            i += 2;
          } else if (c == o.quote()) {
            i++;
            closed = true;
            break;
          } else {
            sb.append(c);
            i++;
          }
        }
        if (!closed) {
          throw new TextValues.BadValue("field " + (out.size() + 1) + ": quote not closed");
        }
        if (i < line.length() && line.charAt(i) != o.delimiter()) {
          throw new TextValues.BadValue("field " + (out.size() + 1) + ": text after the closing quote");
        }
      } else {
        while (i < line.length() && line.charAt(i) != o.delimiter()) {
          sb.append(line.charAt(i++));
        }
      }
      out.add(new Field(sb.toString(), quoted));
      if (i >= line.length()) {
        return out;
      }
      i++; // the delimiter
    }
  }
}
