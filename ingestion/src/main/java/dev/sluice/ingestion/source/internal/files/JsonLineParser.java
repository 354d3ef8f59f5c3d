package dev.sluice.ingestion.source.internal.files;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;

/** One JSON object per line (JSON lines), converted by {@link JsonValues}. */
final class JsonLineParser implements RecordParser {
  static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .build();

  private final StructType schema;
  private final FileSourceOptions.Rescue rescue;
  private final JsonFastPath fast;

  JsonLineParser(StructType schema) {
    this(schema, FileSourceOptions.Rescue.OFF);
  }

  JsonLineParser(StructType schema, FileSourceOptions.Rescue rescue) {
    this.schema = schema;
    this.rescue = rescue;
    this.fast = new JsonFastPath(MAPPER.getFactory(), schema);
  }

  @Override
  public Parsed parse(String line) {
    Object[] values = fast.read(line);
    return values != null ? new Parsed(values, List.of()) : parseTree(line);
  }

  @Override
  public Object[] readClean(byte[] bytes, int from, int to) {
    Object[] plain = fast.readPlain(bytes, from, to - from);
    return plain != null ? plain : fast.read(bytes, from, to - from);
  }

  @Override
  public void endOfFile() {
    fast.release();
  }

  /** Every line the fast path leaves: all judgement (errors, rescued data, field name case) is made here. */
  Parsed parseTree(String line) {
    JsonNode node;
    try {
      node = MAPPER.readTree(line);
    } catch (JsonProcessingException e) {
      return new Parsed(new Object[schema.size()], List.of("not valid JSON: " + e.getOriginalMessage()));
    }
    if (!node.isObject()) {
      return new Parsed(new Object[schema.size()], List.of("not a JSON object but " + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
    }
    List<String> errors = new ArrayList<>();
    RescuedData rescued = rescue.enabled() ? new RescuedData(rescue.typeMismatches()) : null;
    Object[] values = JsonValues.struct(node, schema, "", errors, rescued);
    return new Parsed(values, errors, rescued == null ? null : rescued.json());
  }
}
