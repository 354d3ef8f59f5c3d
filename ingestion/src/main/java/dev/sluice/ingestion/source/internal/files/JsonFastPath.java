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
import java.nio.charset.StandardCharsets;
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

  /** Longer strings are left to Jackson, whose length limits then apply. */
  private static final int MAX_PLAIN_STRING = 1 << 16;
  private static final int MAX_PLAIN_DIGITS = 18;
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};
  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};

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
  private char[] lastTimestamp = new char[32];
  private int lastTimestampLength;
  private Instant lastInstant;
  /** Each column's name as bytes (its UTF-8; a line of ASCII bytes matches only an ASCII name). */
  private final byte[][] nameBytes;
  private char[] charBuffer = new char[64];
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
    this.nameBytes = new byte[schema.size()][];
    boolean ok = true;
    for (int i = 0; i < schema.size(); i++) {
      index.put(schema.field(i).name(), i);
      nameBytes[i] = schema.field(i).name().getBytes(StandardCharsets.UTF_8);
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
    return timestamp(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), at);
  }

  private Object timestamp(char[] chars, int from, int length, int at) throws TextValues.BadValue {
    if (lastInstant != null && length == lastTimestampLength
        && java.util.Arrays.equals(chars, from, from + length, lastTimestamp, 0, length)) {
      return lastInstant;
    }
    Instant t = TextValues.plainTimestamp(chars, from, length);
    if (t == null) {
      return TextValues.parse(new String(chars, from, length), schema.field(at).type(), schema.field(at).name());
    }
    if (lastTimestamp.length < length) {
      lastTimestamp = new char[length];
    }
    System.arraycopy(chars, from, lastTimestamp, 0, length);
    lastTimestampLength = length;
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
    return integral(p.getLongValue(), kind, at);
  }

  /** A JSON integer that fits a long as the column takes it (Jackson's INT type is exactly a value that fits an int). */
  private Object integral(long v, int kind, int at) throws TextValues.BadValue {
    return switch (kind) {
      case DECIMAL -> TextValues.decimal(java.math.BigDecimal.valueOf(v), (DecimalType) schema.field(at).type(),
          schema.field(at).name());
      case LONG -> v;
      case INTEGER -> v == (int) v ? (Object) (int) v : null;
      case SHORT -> v == (short) v ? (Object) (short) v : null;
      case BYTE -> v == (byte) v ? (Object) (byte) v : null;
      case DOUBLE -> (double) v;
      case FLOAT -> (float) v;
      default -> null;
    };
  }

  // ---- Lines read from their bytes without Jackson ----

  /**
   * Reads a line of ASCII bytes holding a flat JSON object in its plainest form (strings without escapes or control
   * characters, integers of at most 18 digits without leading zeros, plain decimals for decimal columns, true, false,
   * null) straight from the bytes; null for anything else, which {@link #read(byte[], int, int)} then reads with
   * Jackson. It takes a line only when that method would, with the same values (JsonFastPathTest compares the three
   * readers): Jackson's tokens, their text copied to chars and then to Strings were a sixth of bronze's parse time.
   */
  Object[] readPlain(byte[] b, int offset, int length) {
    if (!usable) {
      return null;
    }
    int end = offset + length;
    int i = offset;
    if (i >= end || b[i] != '{') {
      return null;
    }
    java.util.Arrays.fill(seen, 0L);
    Object[] values = new Object[schema.size()];
    try {
      i = skipBlank(b, i + 1, end);
      if (i < end && b[i] == '}') {
        return blank(b, i + 1, end) ? values : null;
      }
      int position = 0;
      while (true) {
        if (i >= end || b[i] != '"') {
          return null;
        }
        int nameEnd = plainStringEnd(b, i + 1, end);
        if (nameEnd < 0) {
          return null;
        }
        int at = columnOf(b, i + 1, nameEnd, position++);
        if (at < 0 || !firstTime(at)) {
          return null;
        }
        i = skipBlank(b, nameEnd + 1, end);
        if (i >= end || b[i] != ':') {
          return null;
        }
        i = skipBlank(b, i + 1, end);
        i = i < end ? plainValue(b, i, end, at, values) : -1;
        if (i < 0) {
          return null;
        }
        i = skipBlank(b, i, end);
        if (i < end && b[i] == '}') {
          return blank(b, i + 1, end) ? values : null;
        }
        if (i >= end || b[i] != ',') {
          return null;
        }
        i = skipBlank(b, i + 1, end);
      }
    } catch (TextValues.BadValue e) {
      return null;
    }
  }

  /** The index after the value at {@code i} (stored in {@code values[at]} unless null), or -1 if not taken. */
  private int plainValue(byte[] b, int i, int end, int at, Object[] values) throws TextValues.BadValue {
    byte c = b[i];
    int kind = kinds[at];
    if (c == '"') {
      int close = plainStringEnd(b, i + 1, end);
      if (close < 0) {
        return -1;
      }
      int length = close - i - 1;
      Object v = switch (kind) {
        case STRING -> new String(b, i + 1, length, StandardCharsets.ISO_8859_1);
        case TIMESTAMP -> timestamp(chars(b, i + 1, length), 0, length, at);
        case DECIMAL, DOUBLE, FLOAT, OTHER_TEXT -> TextValues.parse(new String(b, i + 1, length,
            StandardCharsets.ISO_8859_1), schema.field(at).type(), schema.field(at).name());
        default -> null;
      };
      values[at] = v;
      return v == null ? -1 : close + 1;
    }
    if (c == 'n') {
      return literal(b, i, end, NULL) ? i + NULL.length : -1;
    }
    if (c == 't' || c == 'f') {
      byte[] word = c == 't' ? TRUE : FALSE;
      if (kind != BOOLEAN || !literal(b, i, end, word)) {
        return -1;
      }
      values[at] = c == 't';
      return i + word.length;
    }
    return c == '-' || isDigit(c) ? plainNumber(b, i, end, at, values) : -1;
  }

  private int plainNumber(byte[] b, int i, int end, int at, Object[] values) throws TextValues.BadValue {
    int j = b[i] == '-' ? i + 1 : i;
    int digits = j;
    while (j < end && isDigit(b[j])) {
      j++;
    }
    int count = j - digits;
    if (count == 0 || count > MAX_PLAIN_DIGITS || (count > 1 && b[digits] == '0')) {
      return -1; // none, too many for a long, or a leading zero (which JSON forbids)
    }
    if (j < end && (b[j] == 'e' || b[j] == 'E')) {
      return -1;
    }
    if (j < end && b[j] == '.') {
      int fraction = ++j;
      while (j < end && isDigit(b[j])) {
        j++;
      }
      if (j == fraction || (j < end && (b[j] == 'e' || b[j] == 'E')) || kinds[at] != DECIMAL) {
        return -1;
      }
      DecimalType type = (DecimalType) schema.field(at).type();
      BigDecimal v = PlainDecimals.parse(chars(b, i, j - i), 0, j - i, type.scale(), type.precision());
      values[at] = v;
      return v == null ? -1 : j;
    }
    long v = 0;
    for (int k = digits; k < j; k++) {
      v = v * 10 + (b[k] - '0');
    }
    Object value = integral(b[i] == '-' ? -v : v, kinds[at], at);
    values[at] = value;
    return value == null ? -1 : j;
  }

  /** The index of the quote that ends a string starting at {@code i}, or -1 for an escape, a control character. */
  private static int plainStringEnd(byte[] b, int i, int end) {
    for (int limit = Math.min(end, i + MAX_PLAIN_STRING); i < limit; i++) {
      byte c = b[i];
      if (c == '"') {
        return i;
      }
      if (c == '\\' || c < 0x20) {
        return -1;
      }
    }
    return -1;
  }

  private static boolean literal(byte[] b, int i, int end, byte[] word) {
    return end - i >= word.length && java.util.Arrays.equals(b, i, i + word.length, word, 0, word.length);
  }

  private static int skipBlank(byte[] b, int i, int end) {
    while (i < end && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) {
      i++;
    }
    return i;
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }

  /** Whether b[from, to) holds {@code expected}: names are short, and a plain loop beat the ranged Arrays.equals. */
  private static boolean sameBytes(byte[] b, int from, int to, byte[] expected) {
    if (to - from != expected.length) {
      return false;
    }
    for (int k = 0; k < expected.length; k++) {
      if (b[from + k] != expected[k]) {
        return false;
      }
    }
    return true;
  }

  /** ASCII bytes as chars, in a buffer reused line after line. */
  private char[] chars(byte[] b, int from, int length) {
    if (charBuffer.length < length) {
      charBuffer = new char[Math.max(length, 2 * charBuffer.length)];
    }
    for (int k = 0; k < length; k++) {
      charBuffer[k] = (char) b[from + k];
    }
    return charBuffer;
  }

  /** The column of the field named by the ASCII bytes [from, to) at {@code position}, or -1. */
  private int columnOf(byte[] b, int from, int to, int position) {
    if (position < lastOrder.length && lastOrder[position] != null) {
      if (sameBytes(b, from, to, nameBytes[lastOrderAt[position]])) {
        return lastOrderAt[position];
      }
    }
    return columnOf(new String(b, from, to - from, StandardCharsets.ISO_8859_1), position);
  }
}
