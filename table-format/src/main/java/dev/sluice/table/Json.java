package dev.sluice.table;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;

/** JSON-encodes values for {@code commitInfo.operationParameters}, whose values are JSON strings in Delta. */
final class Json {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  static String stringList(List<String> values) {
    return write(values);
  }

  static String stringMap(Map<String, String> values) {
    return write(values);
  }

  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
