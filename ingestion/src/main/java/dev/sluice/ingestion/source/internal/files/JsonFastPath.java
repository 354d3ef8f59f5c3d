package dev.sluice.ingestion.source.internal.files;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
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
  /** The field names of the last object in their order, and their columns: lines of a file repeat one order. */
  private final String[] lastOrder;
  private final int[] lastOrderAt;
  /** The last timestamp text read and its value: consecutive lines and columns often repeat one. */
  private char[] lastTimestamp = new char[0];
  private Instant lastInstant;
  private JsonParser shared;
  private byte[] sharedBytes;
  /** What to add to the shared parser's offsets to get offsets in {@code sharedBytes}. */
  private int sharedBase;
  /** The offset after the last object the shared parser read. */
  private int sharedAfter;
  private int parsersCreated;

  JsonFastPath(JsonFactory factory, StructType schema) {
    this.factory = factory;
    this.schema = schema;
    this.kinds = new int[schema.size()];
    this.seen = new long[(schema.size() + 63) / 64];
    this.lastOrder = new String[schema.size()];
    this.lastOrderAt = new int[schema.size()];
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
   *
   * <p>Lines of one file read one after the other share a parser over the rest of the file: creating and closing a
   * parser per line (its context, buffers and their release) doubled the time to parse a file of bronze lines. A line is
   * taken from the shared parser only when nothing but whitespace lies between the object read before and this
   * line, and after its object only whitespace up to the line's end; a line that fails ends the shared parser.
   * Call {@link #release} when the file is read.
   */
  Object[] read(byte[] bytes, int offset, int length) {
    if (!usable) {
      return null;
    }
    int end = offset + length;
    try {
      JsonParser p = parserAt(bytes, offset);
      if (p == null) {
        return null;
      }
      Object[] values = readObject(p);
      int after = values == null ? -1 : sharedBase + (int) p.currentLocation().getByteOffset();
      if (values == null || after > end || bytes[after - 1] != '}' || !blank(bytes, after, end)) {
        release();
        return null;
      }
      sharedAfter = after;
      return values;
    } catch (IOException | RuntimeException e) {
      release();
      return null;
    }
  }

  /** The shared parser with its next token the object that starts at {@code offset}, or null. */
  private JsonParser parserAt(byte[] bytes, int offset) throws IOException {
    if (shared == null || sharedBytes != bytes || sharedAfter > offset || !blank(bytes, sharedAfter, offset)) {
      release();
      shared = factory.createParser(bytes, offset, bytes.length - offset);
      parsersCreated++;
      sharedBytes = bytes;
      if (shared.nextToken() != JsonToken.START_OBJECT) {
        release();
        return null;
      }
      // Jackson counts offsets from the start of its input (or of the array, by version): calibrate once.
      sharedBase = offset - (int) shared.currentTokenLocation().getByteOffset();
      return shared;
    }
    if (shared.nextToken() != JsonToken.START_OBJECT
        || sharedBase + (int) shared.currentTokenLocation().getByteOffset() != offset) {
      release();
      return null;
    }
    return shared;
  }

  /** Whether {@code bytes[from, to)} holds only what JSON counts as whitespace. */
  private static boolean blank(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      byte b = bytes[i];
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return false;
      }
    }
    return true;
  }

  /** Ends the shared parser (at the end of a file, or after a line it could not take). */
  void release() {
    if (shared != null) {
      try {
        shared.close();
      } catch (IOException ignored) {
        // a parser over a byte array holds nothing to close
      }
      shared = null;
      sharedBytes = null;
    }
  }

  /** Parsers created for byte lines so far (tests: consecutive clean lines share one). */
  int parsersCreated() {
    return parsersCreated;
  }

  private Object[] read(JsonParser p) throws IOException {
    if (p.nextToken() != JsonToken.START_OBJECT) {
      return null;
    }
    Object[] values = readObject(p);
    return values == null || p.nextToken() != null ? null : values;
  }

  /** The values of the object whose START_OBJECT is the current token, up to its END_OBJECT; null if not taken. */
  private Object[] readObject(JsonParser p) throws IOException {
    java.util.Arrays.fill(seen, 0L);
    Object[] values = new Object[schema.size()];
    try {
      String name;
      int position = 0;
      while ((name = p.nextFieldName()) != null) {
        int at = columnOf(name, position++);
        if (at < 0 || !firstTime(at)) {
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
      return p.currentToken() == JsonToken.END_OBJECT ? values : null;
    } catch (TextValues.BadValue e) {
      return null;
    }
  }

  /** The column of the field at {@code position} in its object, or -1 when the schema has none of that name. */
  private int columnOf(String name, int position) {
    if (position < lastOrder.length && name.equals(lastOrder[position])) {
      return lastOrderAt[position];
    }
    Integer at = index.get(name);
    if (at == null) {
      return -1;
    }
    if (position < lastOrder.length) {
      lastOrder[position] = name;
      lastOrderAt[position] = at;
    }
    return at;
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
        case TIMESTAMP -> timestamp(p, at);
        case DECIMAL, DOUBLE, FLOAT, OTHER_TEXT ->
            TextValues.parse(p.getText(), schema.field(at).type(), schema.field(at).name());
        default -> null;
      };
    }
    if (token == JsonToken.VALUE_NUMBER_FLOAT) {
      return switch (kind) {
        case DECIMAL -> decimal(p, at);
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

  /** A timestamp string as {@link TextValues#parse} reads it, from the parser's chars when it has the usual shape. */
  private Object timestamp(JsonParser p, int at) throws IOException, TextValues.BadValue {
    char[] chars = p.getTextCharacters();
    int from = p.getTextOffset();
    int length = p.getTextLength();
    if (lastInstant != null && java.util.Arrays.equals(chars, from, from + length, lastTimestamp, 0,
        lastTimestamp.length)) {
      return lastInstant;
    }
    Instant t = IsoTimestamps.parse(chars, from, length);
    if (t == null || t.isBefore(TextValues.MIN_TIMESTAMP) || t.isAfter(TextValues.MAX_TIMESTAMP)) {
      return TextValues.parse(p.getText(), schema.field(at).type(), schema.field(at).name());
    }
    lastTimestamp = java.util.Arrays.copyOfRange(chars, from, from + length);
    lastInstant = t;
    return t;
  }

  /** A JSON decimal number as {@link TextValues#decimal} reads it, by long arithmetic when it is a plain one. */
  private Object decimal(JsonParser p, int at) throws IOException, TextValues.BadValue {
    DecimalType type = (DecimalType) schema.field(at).type();
    BigDecimal plain = PlainDecimals.parse(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), type.scale(),
        type.precision());
    return plain != null ? plain : TextValues.decimal(p.getDecimalValue(), type, schema.field(at).name());
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
