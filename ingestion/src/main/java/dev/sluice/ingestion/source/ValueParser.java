package dev.sluice.ingestion.source;

import dev.sluice.ingestion.source.internal.files.ValueParsers;
import dev.sluice.table.types.StructType;
import java.util.List;

/**
 * Parses one text value (a Kafka record's value, a message body) into the values of a schema with the rules of the
 * files source: fields the schema lacks, and with {@code rescueTypeMismatches} values of the wrong type, go to the
 * rescued data (a JSON object); input that can't be read at all is reported in {@link Parsed#errors()}, never
 * thrown. Not thread-safe: one per query.
 */
public interface ValueParser {
  /** The values (null where a field could not be read), what was wrong (empty when nothing), and the rescued JSON. */
  record Parsed(Object[] values, List<String> errors, String rescued) {}

  Parsed parse(String text);

  /**
   * A parser of {@code format}: {@code json} (one object), {@code csv} (one line, comma separated, no header) or
   * {@code text} (the whole value into the schema's single string column).
   *
   * @throws IllegalArgumentException for another format, or a text schema that is not one string column
   */
  static ValueParser of(String format, StructType schema, boolean rescueTypeMismatches) {
    return ValueParsers.of(format, schema, rescueTypeMismatches);
  }
}
