package dev.sluice.bronze;

import dev.sluice.config.KafkaSourceConfig.ValueFormat;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchTransformer;
import dev.sluice.ingestion.source.ValueParser;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Parses the value of every Kafka record of a batch with the files source's rules and lays the rows out as the
 * files source does for bronze: the data columns, {@code _kafka_key} and {@code _kafka_timestamp}, then
 * {@code _rescued_data}, {@code _source} ({@code topic/partition/offset}) and the corrupt columns. A value that is
 * not valid UTF-8, is empty (a tombstone) or can't be parsed is corrupt: bronze quarantines it with its raw text
 * and position.
 */
final class KafkaValues implements BatchTransformer {
  static final String KEY = "_kafka_key";
  static final String TIMESTAMP = "_kafka_timestamp";
  private static final int KAFKA_KEY = 0;
  private static final int KAFKA_VALUE = 1;
  private static final int KAFKA_TOPIC = 2;
  private static final int KAFKA_PARTITION = 3;
  private static final int KAFKA_OFFSET = 4;
  private static final int KAFKA_TIMESTAMP = 5;

  private final StructType data;
  private final ValueParser parser;

  KafkaValues(StructType data, ValueFormat format, boolean rescueTypeMismatches) {
    this.data = data;
    this.parser = ValueParser.of(format.name().toLowerCase(Locale.ROOT), data, rescueTypeMismatches);
  }

  /** The columns this step returns for {@code data}, the value's parsed columns. */
  static StructType schema(StructType data) {
    return data.add(KEY, PrimitiveType.STRING).add(TIMESTAMP, PrimitiveType.TIMESTAMP)
        .add(BronzeColumns.RESCUED, PrimitiveType.STRING).add(BronzeColumns.SOURCE, PrimitiveType.STRING)
        .add(BronzeColumns.CORRUPT_RECORD, PrimitiveType.STRING).add(BronzeColumns.CORRUPT_ERROR, PrimitiveType.STRING);
  }

  @Override
  public StructType outputSchema(StructType input) {
    if (input.indexOf("value") != KAFKA_VALUE || input.indexOf("offset") != KAFKA_OFFSET) {
      throw new IllegalArgumentException("A bronze kafka source reads the kafka source's columns, not " + input);
    }
    return schema(data);
  }

  @Override
  public Batch apply(Batch batch, Context context) {
    StructType schema = schema(data);
    Batch.Builder out = Batch.builder(schema);
    int n = data.size();
    for (Row r : batch.rows()) {
      Object[] values = new Object[schema.size()];
      String raw = null;
      String error = null;
      String text;
      try {
        text = decode((byte[]) r.get(KAFKA_VALUE));
      } catch (CharacterCodingException e) {
        text = null;
        raw = new String((byte[]) r.get(KAFKA_VALUE), StandardCharsets.UTF_8);
        error = "the value is not valid UTF-8";
      }
      if (text != null && text.isBlank()) {
        raw = text;
        error = "the value is empty (a tombstone or an empty message)";
      } else if (text != null) {
        ValueParser.Parsed parsed = parser.parse(text);
        System.arraycopy(parsed.values(), 0, values, 0, n);
        values[n + 2] = parsed.rescued();
        if (!parsed.errors().isEmpty()) {
          raw = text;
          error = String.join("; ", parsed.errors());
        }
      }
      byte[] key = (byte[]) r.get(KAFKA_KEY);
      values[n] = key == null ? null : new String(key, StandardCharsets.UTF_8);
      values[n + 1] = r.get(KAFKA_TIMESTAMP);
      values[n + 3] = r.get(KAFKA_TOPIC) + "/" + r.get(KAFKA_PARTITION) + "/" + r.get(KAFKA_OFFSET);
      values[n + 4] = raw;
      values[n + 5] = error;
      out.add(Row.of(values));
    }
    return out.build();
  }

  private static String decode(byte[] value) throws CharacterCodingException {
    if (value == null) {
      return "";
    }
    return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(value)).toString();
  }
}
