package dev.sluice.orchestration.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders row values (the Java mapping of {@link DataType}) as text and JSON for the CLI's outputs. */
final class Values {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private Values() {}

  /** Text for a table or CSV cell: null as empty, timestamps as ISO-8601, nested values as JSON. */
  static String text(Object value, DataType type) {
    if (value == null) {
      return "";
    }
    if (value instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (value instanceof byte[] b) {
      return "0x" + HexFormat.of().formatHex(b);
    }
    if (value instanceof Row || value instanceof List<?> || value instanceof Map<?, ?>) {
      return json(value, type).toString();
    }
    return value.toString();
  }

  /** The value as JSON: numbers and booleans as such, binary as base64, structs as objects. */
  static JsonNode json(Object value, DataType type) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof Row r && type instanceof StructType s) {
      return row(r, s);
    }
    if (value instanceof List<?> list) {
      ArrayNode a = NODES.arrayNode();
      DataType element = type instanceof ArrayType at ? at.elementType() : null;
      list.forEach(v -> a.add(json(v, element)));
      return a;
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode o = NODES.objectNode();
      DataType v = type instanceof MapType mt ? mt.valueType() : null;
      map.forEach((k, x) -> o.set(String.valueOf(k), json(x, v)));
      return o;
    }
    if (value instanceof Integer i) {
      return NODES.numberNode(i);
    }
    if (value instanceof Long l) {
      return NODES.numberNode(l);
    }
    if (value instanceof Short s) {
      return NODES.numberNode(s);
    }
    if (value instanceof Byte b) {
      return NODES.numberNode(b);
    }
    if (value instanceof Double d) {
      return d.isNaN() || d.isInfinite() ? NODES.textNode(d.toString()) : NODES.numberNode(d);
    }
    if (value instanceof Float f) {
      return f.isNaN() || f.isInfinite() ? NODES.textNode(f.toString()) : NODES.numberNode(f);
    }
    if (value instanceof BigDecimal d) {
      return NODES.numberNode(d);
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (value instanceof byte[] b) {
      return NODES.textNode(Base64.getEncoder().encodeToString(b));
    }
    return NODES.textNode(value.toString());
  }

  /** A row as a JSON object with the schema's field names. */
  static ObjectNode row(Row row, StructType schema) {
    ObjectNode o = NODES.objectNode();
    for (int i = 0; i < schema.size(); i++) {
      StructField f = schema.field(i);
      o.set(f.name(), json(row.get(i), f.type()));
    }
    return o;
  }

  /** {@code 12,345}. */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** A CSV field, quoted when it holds a separator, quote or line break (RFC 4180). */
  static String csv(String field) {
    if (field.contains(",") || field.contains("\"") || field.contains("\n") || field.contains("\r")) {
      return "\"" + field.replace("\"", "\"\"") + "\"";
    }
    return field;
  }

  /** {@code 1.2 s}, {@code 3 min 5 s}. */
  static String duration(long millis) {
    if (millis < 1000) {
      return millis + " ms";
    }
    if (millis < 60_000) {
      return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
    long s = millis / 1000;
    return s / 3600 > 0 ? String.format(Locale.ROOT, "%d h %d min", s / 3600, s % 3600 / 60)
        : String.format(Locale.ROOT, "%d min %d s", s / 60, s % 60);
  }

  /** {@code 12.3 KB}. */
  static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    String[] units = {"KB", "MB", "GB", "TB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }
}
