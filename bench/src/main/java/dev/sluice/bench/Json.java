package dev.sluice.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/** Prints one benchmark result as a JSON object line. */
final class Json {
  private Json() {}

  static Map<String, Object> object() {
    return new LinkedHashMap<>();
  }

  static String write(Map<String, Object> values) {
    StringBuilder sb = new StringBuilder("{");
    for (Map.Entry<String, Object> e : values.entrySet()) {
      if (sb.length() > 1) {
        sb.append(',');
      }
      sb.append('"').append(e.getKey()).append("\":");
      Object v = e.getValue();
      if (v instanceof Number || v instanceof Boolean) {
        sb.append(v);
      } else if (v instanceof Map<?, ?> m) {
        @SuppressWarnings("unchecked")
        Map<String, Object> nested = (Map<String, Object>) m;
        sb.append(write(nested));
      } else {
        sb.append('"').append(String.valueOf(v).replace("\"", "\\\"")).append('"');
      }
    }
    return sb.append('}').toString();
  }
}
