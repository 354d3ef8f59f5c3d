package dev.sluice.table.internal.parquet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/** Reads {@code add.stats} JSON written by Sluice, Spark, Kernel and other Delta writers. */
final class StatsParser {
  /** ISO date-time with any offset form: {@code Z}, {@code -08:00}, {@code -0800} or {@code -08}. */
  private static final DateTimeFormatter OFFSET_TIMESTAMP = new DateTimeFormatterBuilder()
      .append(DateTimeFormatter.ISO_LOCAL_DATE_TIME)
      .optionalStart().appendOffset("+HH:MM:ss", "Z").optionalEnd()
      .optionalStart().appendOffset("+HHMM", "Z").optionalEnd()
      .optionalStart().appendOffset("+HH", "Z").optionalEnd()
      .toFormatter();

  private StatsParser() {}

  static ParsedStats parse(String json, StructType schema) {
    JsonNode root;
    try {
      root = FileStats.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("add.stats is not valid JSON (" + e.getOriginalMessage()
          + "); the file's statistics cannot be used: " + abbreviate(json), e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("add.stats must be a JSON object, but is: " + abbreviate(json));
    }
    JsonNode records = root.get("numRecords");
    OptionalLong numRecords = records != null && records.canConvertToLong() && records.isIntegralNumber()
        ? OptionalLong.of(records.asLong()) : OptionalLong.empty();
    return new ParsedStats(numRecords,
        bounds(root.get("minValues"), schema), bounds(root.get("maxValues"), schema), nullCounts(root.get("nullCount"), schema));
  }

  private static String abbreviate(String json) {
    return json.length() <= 200 ? json : json.substring(0, 200) + "...";
  }

  private static Map<String, Object> bounds(JsonNode node, StructType struct) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (node == null || !node.isObject()) {
      return out;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      StructField field = struct.field(e.getKey()).orElse(null);
      if (field == null) {
        continue;
      }
      Object value = field.type() instanceof StructType nested
          ? nonEmpty(bounds(e.getValue(), nested)) : leafValue(field.type(), e.getValue());
      if (value != null) {
        out.put(field.name(), value);
      }
    }
    return out;
  }

  private static Map<String, Object> nullCounts(JsonNode node, StructType struct) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (node == null || !node.isObject()) {
      return out;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      StructField field = struct.field(e.getKey()).orElse(null);
      if (field == null) {
        continue;
      }
      JsonNode v = e.getValue();
      if (field.type() instanceof StructType nested && v.isObject()) {
        Map<String, Object> children = nonEmpty(nullCounts(v, nested));
        if (children != null) {
          out.put(field.name(), children);
        }
      } else if (v.isIntegralNumber() && v.canConvertToLong()) {
        out.put(field.name(), v.asLong());
      }
    }
    return out;
  }

  private static Map<String, Object> nonEmpty(Map<String, Object> map) {
    return map.isEmpty() ? null : map;
  }

  /** The typed value, or null when this writer's value cannot be read as the column's type. */
  private static Object leafValue(DataType type, JsonNode v) {
    if (v == null || v.isNull()) {
      return null;
    }
    try {
      if (type instanceof DecimalType decimal) {
        // Jackson strips trailing zeros; the column's scale gives the value back its Java identity.
        BigDecimal value = v.isNumber() ? v.decimalValue() : new BigDecimal(v.asText());
        return value.setScale(decimal.scale(), RoundingMode.UNNECESSARY);
      }
      if (!(type instanceof PrimitiveType primitive)) {
        return null;
      }
      return switch (primitive) {
        case STRING -> v.isTextual() ? v.asText() : null;
        case LONG -> v.isIntegralNumber() && v.canConvertToLong() ? v.asLong() : null;
        case INTEGER -> v.isIntegralNumber() && v.canConvertToInt() ? v.asInt() : null;
        case SHORT -> v.isIntegralNumber() && v.canConvertToInt() ? Short.valueOf((short) checked(v.asInt(), Short.MIN_VALUE, Short.MAX_VALUE)) : null;
        case BYTE -> v.isIntegralNumber() && v.canConvertToInt() ? Byte.valueOf((byte) checked(v.asInt(), Byte.MIN_VALUE, Byte.MAX_VALUE)) : null;
        case DOUBLE -> v.isNumber() ? v.doubleValue() : Double.valueOf(v.asText());
        case FLOAT -> v.isNumber() ? v.floatValue() : Float.valueOf(v.asText());
        case DATE -> v.isTextual() ? LocalDate.parse(v.asText().substring(0, Math.min(10, v.asText().length()))) : null;
        case TIMESTAMP -> v.isTextual() ? timestamp(v.asText()) : null;
        case BOOLEAN, BINARY, TIMESTAMP_NTZ -> null;
      };
    } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
      return null;
    }
  }

  private static int checked(int value, int min, int max) {
    if (value < min || value > max) {
      throw new ArithmeticException(value + " is out of range");
    }
    return value;
  }

  /** A timestamp with an explicit offset; one without an offset has no defined instant, so none. */
  private static Instant timestamp(String text) {
    var parsed = OFFSET_TIMESTAMP.parseBest(text, OffsetDateTime::from, java.time.LocalDateTime::from);
    return parsed instanceof OffsetDateTime odt ? odt.toInstant() : null;
  }
}
