package dev.sluice.ingestion.source.internal.files;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a well-formed JSON line straight from Jackson's tokens into the values of a flat schema: no tree, no map
 * per line. It takes only lines it can read without any judgement call: a JSON object whose every field is a
 * column of the schema by its exact name, at most once, holding null or a scalar that fits the column. For any
 * other line (invalid JSON, trailing tokens, unknown or differently cased fields, duplicates, nested values, a
 * value that doesn't fit) it gives null, and {@link JsonValues} reads the line from a tree as before, so rescued
 * data, corrupt records, case-insensitive matching and their messages are exactly those of that path.
 *
 * <p>A schema with a nested column is always left to the tree path. Not thread-safe: one per file reader.
 */
final class JsonFastPath {
  private static final int STRING = 0;
  private static final int TIMESTAMP = 1;
  private static final int DECIMAL = 2;
  private static final int LONG = 3;
  private static final int INTEGER = 4;
  private static final int SHORT = 5;
  private static final int BYTE = 6;
  private static final int DOUBLE = 7;
  private static final int FLOAT = 8;
  private static final int BOOLEAN = 9;
  private static final int OTHER_TEXT = 10;

  private final JsonFactory factory;
  private final StructType schema;
  private final Map<String, Integer> index = new HashMap<>();
  private final int[] kinds;
  private final boolean usable;
  private final long[] seen;

  JsonFastPath(JsonFactory factory, StructType schema) {
    this.factory = factory;
    this.schema = schema;
    this.kinds = new int[schema.size()];
    this.seen = new long[(schema.size() + 63) / 64];
    boolean ok = true;
    for (int i = 0; i < schema.size(); i++) {
      index.put(schema.field(i).name(), i);
      kinds[i] = kind(schema.field(i).type());
      ok &= kinds[i] >= 0;
    }
    this.usable = ok;
  }

  private static int kind(DataType type) {
    if (type instanceof DecimalType) {
      return DECIMAL;
    }
    if (!(type instanceof PrimitiveType p)) {
      return -1;
    }
    return switch (p) {
      case STRING -> STRING;
      case TIMESTAMP -> TIMESTAMP;
      case LONG -> LONG;
      case INTEGER -> INTEGER;
      case SHORT -> SHORT;
      case BYTE -> BYTE;
      case DOUBLE -> DOUBLE;
      case FLOAT -> FLOAT;
      case BOOLEAN -> BOOLEAN;
      case DATE, BINARY -> OTHER_TEXT;
      case TIMESTAMP_NTZ -> -1;
    };
  }

  /** The schema's values of {@code line}, or null when the line is left to the tree path. */
  Object[] read(String line) {
    if (!usable) {
      return null;
    }
    try (JsonParser p = factory.createParser(line)) {
      return read(p);
    } catch (IOException | RuntimeException e) {
      return null; // the tree path reads it again and reports what is wrong
    }
  }

  /**
   * The same for a line given as UTF-8 bytes ({@code length} bytes of {@code bytes} from {@code offset}), read by
   * Jackson's byte parser with no {@code String} made for the line. The caller checks the bytes are valid UTF-8.
   */
  Object[] read(byte[] bytes, int offset, int length) {
    if (!usable) {
      return null;
    }
    try (JsonParser p = factory.createParser(bytes, offset, length)) {
      return read(p);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private Object[] read(JsonParser p) throws IOException {
    java.util.Arrays.fill(seen, 0L);
    Object[] values = new Object[schema.size()];
    try {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      String name;
      while ((name = p.nextFieldName()) != null) {
        Integer at = index.get(name);
        if (at == null || !firstTime(at)) {
          return null;
        }
        JsonToken token = p.nextToken();
        if (token != JsonToken.VALUE_NULL) {
          Object v = value(p, token, at);
          if (v == null) {
            return null;
          }
          values[at] = v;
        }
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        return null;
      }
      return values;
    } catch (TextValues.BadValue e) {
      return null;
    }
  }

  private boolean firstTime(int i) {
    long bit = 1L << (i & 63);
    if ((seen[i >> 6] & bit) != 0) {
      return false;
    }
    seen[i >> 6] |= bit;
    return true;
  }

  /** The value as {@link JsonValues} converts it, or null for a token it would judge (left to the tree path). */
  private Object value(JsonParser p, JsonToken token, int at) throws IOException, TextValues.BadValue {
    int kind = kinds[at];
    if (token == JsonToken.VALUE_STRING) {
      return switch (kind) {
        case STRING -> p.getText();
        case TIMESTAMP, DECIMAL, DOUBLE, FLOAT, OTHER_TEXT ->
            TextValues.parse(p.getText(), schema.field(at).type(), schema.field(at).name());
        default -> null;
      };
    }
    if (token == JsonToken.VALUE_NUMBER_FLOAT) {
      return switch (kind) {
        case DECIMAL -> TextValues.decimal(p.getDecimalValue(), (DecimalType) schema.field(at).type(),
            schema.field(at).name());
        case DOUBLE -> p.getDecimalValue().doubleValue();
        case FLOAT -> p.getDecimalValue().floatValue();
        default -> null;
      };
    }
    if (token == JsonToken.VALUE_NUMBER_INT) {
      return integral(p, kind, at);
    }
    if ((token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE) && kind == BOOLEAN) {
      return token == JsonToken.VALUE_TRUE;
    }
    return null;
  }

  private Object integral(JsonParser p, int kind, int at) throws IOException, TextValues.BadValue {
    JsonParser.NumberType type = p.getNumberType();
    if (type != JsonParser.NumberType.INT && type != JsonParser.NumberType.LONG) {
      return null;
    }
    long v = p.getLongValue();
    return switch (kind) {
      case DECIMAL -> TextValues.decimal(java.math.BigDecimal.valueOf(v), (DecimalType) schema.field(at).type(),
          schema.field(at).name());
      case LONG -> v;
      case INTEGER -> type == JsonParser.NumberType.INT ? (Object) (int) v : null;
      case SHORT -> v == (short) v ? (Object) (short) v : null;
      case BYTE -> v == (byte) v ? (Object) (byte) v : null;
      case DOUBLE -> (double) v;
      case FLOAT -> (float) v;
      default -> null;
    };
  }
}
