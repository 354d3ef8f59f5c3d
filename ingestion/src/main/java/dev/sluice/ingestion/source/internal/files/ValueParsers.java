package dev.sluice.ingestion.source.internal.files;

import dev.sluice.ingestion.source.ValueParser;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.util.List;
import java.util.Optional;

/** {@link ValueParser}s over the files source's line parsers, so that both judge input the same way. */
public final class ValueParsers {
  private ValueParsers() {}

  public static ValueParser of(String format, StructType schema, boolean rescueTypeMismatches) {
    FileSourceOptions.Rescue rescue = new FileSourceOptions.Rescue(Optional.of("_rescued_data"), rescueTypeMismatches);
    RecordParser parser = switch (format) {
      case "json" -> new JsonLineParser(schema, rescue);
      case "csv" -> new CsvLineParser(schema, new FileSourceOptions.CsvOptions(false, ',', '"', '\\', ""), rescue);
      case "text" -> {
        if (schema.size() != 1 || schema.field(0).type() != PrimitiveType.STRING) {
          throw new IllegalArgumentException("A text value fills one string column, but the schema is " + schema
              + "; declare a single string column, or parse the value as json or csv");
        }
        yield text -> new RecordParser.Parsed(new Object[] {text}, List.of());
      }
      default -> throw new IllegalArgumentException("Unknown value format '" + format
          + "': use json, csv or text");
    };
    return text -> {
      RecordParser.Parsed p = parser.parse(text);
      return new ValueParser.Parsed(p.values(), p.errors(), p.rescued());
    };
  }
}
