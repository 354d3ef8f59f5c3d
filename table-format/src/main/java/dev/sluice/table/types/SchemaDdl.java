package dev.sluice.table.types;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads Spark's DDL schema strings ({@code StructType.fromDDL}): {@code order_id STRING NOT NULL, amount
 * DECIMAL(10,2), `ship to` STRUCT<city: STRING, zip: INT>, tags ARRAY<STRING>, attrs MAP<STRING, BIGINT>}.
 *
 * <p>Type names are Spark's, case-insensitive, with its aliases (INT, BIGINT, SMALLINT, TINYINT, REAL, DEC,
 * NUMERIC, VARCHAR(n) and CHAR(n) read as string, TIMESTAMP_LTZ as timestamp); a {@code COMMENT 'text'} goes to
 * the field's {@code comment} metadata, as in Spark. Array elements and map values may be null.
 */
final class SchemaDdl {
  private static final String EXAMPLE = "e.g. \"order_id STRING NOT NULL, amount DECIMAL(10,2), tags ARRAY<STRING>\"";
  private static final Map<String, DataType> NAMES = Map.ofEntries(
      Map.entry("string", PrimitiveType.STRING), Map.entry("boolean", PrimitiveType.BOOLEAN),
      Map.entry("tinyint", PrimitiveType.BYTE), Map.entry("byte", PrimitiveType.BYTE),
      Map.entry("smallint", PrimitiveType.SHORT), Map.entry("short", PrimitiveType.SHORT),
      Map.entry("int", PrimitiveType.INTEGER), Map.entry("integer", PrimitiveType.INTEGER),
      Map.entry("bigint", PrimitiveType.LONG), Map.entry("long", PrimitiveType.LONG),
      Map.entry("float", PrimitiveType.FLOAT), Map.entry("real", PrimitiveType.FLOAT),
      Map.entry("double", PrimitiveType.DOUBLE), Map.entry("date", PrimitiveType.DATE),
      Map.entry("timestamp", PrimitiveType.TIMESTAMP), Map.entry("timestamp_ltz", PrimitiveType.TIMESTAMP),
      Map.entry("timestamp_ntz", PrimitiveType.TIMESTAMP_NTZ), Map.entry("binary", PrimitiveType.BINARY));
  private static final Set<String> DECIMALS = Set.of("decimal", "dec", "numeric");
  private static final Set<String> CHARS = Set.of("varchar", "char");

  private final String text;
  private int pos;

  private SchemaDdl(String text) {
    this.text = text;
  }

  /**
   * @throws IllegalArgumentException naming what is wrong and where (1-based character position)
   */
  static StructType parse(String ddl) {
    SchemaDdl parser = new SchemaDdl(ddl == null ? "" : ddl);
    StructType schema = parser.fields('\0');
    parser.skipSpace();
    if (parser.pos < parser.text.length()) {
      throw parser.error("expected `,` or the end of the schema");
    }
    return schema;
  }

  /** Fields separated by commas, up to {@code end} ({@code '\0'}: the end of the text). */
  private StructType fields(char end) {
    List<StructField> fields = new ArrayList<>();
    Set<String> names = new HashSet<>();
    do {
      skipSpace();
      if (end != '\0' && peek() == end && fields.isEmpty()) {
        break; // STRUCT<>
      }
      int at = pos;
      StructField field = field(end != '\0');
      if (!names.add(field.name().toLowerCase(Locale.ROOT))) {
        pos = at;
        throw error("duplicate column `" + field.name() + "`");
      }
      fields.add(field);
      skipSpace();
    } while (accept(','));
    return new StructType(fields);
  }

  private StructField field(boolean nested) {
    String name = name();
    skipSpace();
    if (nested) {
      accept(':');
    }
    DataType type = type();
    boolean nullable = true;
    Map<String, Object> metadata = Map.of();
    skipSpace();
    if (acceptWord("not")) {
      if (!acceptWord("null")) {
        throw error("expected NULL after NOT");
      }
      nullable = false;
    }
    if (acceptWord("comment")) {
      metadata = Map.of("comment", quoted());
    }
    return new StructField(name, type, nullable, metadata);
  }

  private DataType type() {
    skipSpace();
    int at = pos;
    String word = word().toLowerCase(Locale.ROOT);
    skipSpace();
    switch (word) {
      case "array": {
        expect('<');
        DataType element = type();
        expect('>');
        return new ArrayType(element, true);
      }
      case "map": {
        expect('<');
        DataType key = type();
        expect(',');
        DataType value = type();
        expect('>');
        return new MapType(key, value, true);
      }
      case "struct": {
        expect('<');
        StructType struct = fields('>');
        expect('>');
        return struct;
      }
      default:
        return simpleType(word, at);
    }
  }

  private DataType simpleType(String word, int at) {
    if (DECIMALS.contains(word)) {
      if (!accept('(')) {
        return DecimalType.of(10, 0); // Spark's default precision and scale
      }
      int precision = number();
      int scale = accept(',') ? number() : 0;
      expect(')');
      try {
        return DecimalType.of(precision, scale);
      } catch (IllegalArgumentException e) {
        pos = at;
        throw error(e.getMessage());
      }
    }
    if (CHARS.contains(word)) {
      expect('(');
      number();
      expect(')');
      return PrimitiveType.STRING;
    }
    DataType type = NAMES.get(word);
    if (type == null) {
      pos = at;
      throw error(word.isEmpty() ? "expected a type" : "unknown type `" + word + "`; known types: "
          + new java.util.TreeSet<>(NAMES.keySet()) + ", decimal(p,s), varchar(n), array<t>, map<k,v>, struct<…>");
    }
    return type;
  }

  private String name() {
    skipSpace();
    if (!accept('`')) {
      String word = word();
      if (word.isEmpty()) {
        throw error("expected a column name");
      }
      return word;
    }
    StringBuilder name = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw error("the backticked name is not closed");
      }
      char c = text.charAt(pos++);
      if (c == '`') {
        if (!accept('`')) {
          return name.toString();
        }
      }
      name.append(c);
    }
  }

  private String quoted() {
    skipSpace();
    char quote = peek();
    if (quote != '\'' && quote != '"') {
      throw error("expected a quoted comment");
    }
    pos++;
    StringBuilder out = new StringBuilder();
    while (pos < text.length() && text.charAt(pos) != quote) {
      char c = text.charAt(pos++);
      out.append(c == '\\' && pos < text.length() ? text.charAt(pos++) : c);
    }
    expect(quote);
    return out.toString();
  }

  private String word() {
    int start = pos;
    while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
      pos++;
    }
    return text.substring(start, pos);
  }

  private int number() {
    skipSpace();
    int start = pos;
    while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
      pos++;
    }
    if (start == pos) {
      throw error("expected a number");
    }
    skipSpace();
    return Integer.parseInt(text.substring(start, pos).strip());
  }

  private boolean acceptWord(String word) {
    skipSpace();
    int start = pos;
    if (word().equalsIgnoreCase(word)) {
      return true;
    }
    pos = start;
    return false;
  }

  private boolean accept(char c) {
    skipSpace();
    if (peek() == c) {
      pos++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!accept(c)) {
      throw error("expected `" + c + "`");
    }
    skipSpace();
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void skipSpace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String problem) {
    String found = pos < text.length() ? "at position " + (pos + 1) + " (`" + text.substring(pos,
        Math.min(text.length(), pos + 20)) + "`)" : "at the end";
    return new IllegalArgumentException("Cannot read the schema '" + text + "': " + problem + " " + found + "; write"
        + " it as Spark DDL, " + EXAMPLE);
  }
}
