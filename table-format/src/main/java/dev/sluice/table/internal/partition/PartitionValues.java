package dev.sluice.table.internal.partition;

import dev.sluice.table.data.Row;
import dev.sluice.table.internal.expressions.ValueText;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.StructType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Delta's partition values and the paths of partitioned files, as Spark writes them.
 *
 * <p>Three encodings stack up (golden table {@code data-reader-partition-values}):
 *
 * <ol>
 *   <li>the value as text in {@code add.partitionValues} ({@link #encode}; timestamps as ISO-8601 UTC,
 *       see {@link ValueText}): {@code 2021-09-08 11:11:11};
 *   <li>the folder name, Hive-escaped ({@link #partitionPath}): {@code as_timestamp=2021-09-08 11%3A11%3A11};
 *   <li>{@code add.path}, the relative object key URI-encoded ({@link #toLogPath}):
 *       {@code as_timestamp=2021-09-08%2011%253A11%253A11/part-0.parquet}.
 * </ol>
 *
 * Readers take values only from {@code partitionValues}, never from folder names; what must hold is
 * that {@link #fromLogPath} of {@code add.path} is the real object key.
 */
public final class PartitionValues {
  /** The folder value Hive and Spark use for a null (or empty) partition value. */
  public static final String HIVE_DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";

  // Spark's ExternalCatalogUtils.charToEscape (non-Windows): controls, "#%'*/:=?\{[]^ and DEL.
  private static final BitSet HIVE_ESCAPED = new BitSet(128);
  private static final Pattern URI_SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.\\-]*:.*", Pattern.DOTALL);

  static {
    HIVE_ESCAPED.set(0x01, 0x20);
    for (char c : "\"#%'*/:=?\\\u007F{[]^".toCharArray()) {
      HIVE_ESCAPED.set(c);
    }
  }

  private PartitionValues() {}

  /**
   * The text of a typed partition value for {@code add.partitionValues}; {@code null} for null.
   *
   * @throws IllegalArgumentException if the value does not fit the type (e.g. a decimal with too many
   *     digits) or the type cannot be a partition column (struct, array, map)
   */
  public static String encode(Object value, DataType type) {
    return value == null ? null : ValueText.format(value, type);
  }

  /**
   * The typed value of a partition value's text; {@code null} for null or the empty string (Delta
   * stores an empty partition value as null). Timestamps may be ISO-8601 with an offset or the older
   * {@code yyyy-MM-dd HH:mm:ss[.ffffff]} form, which is read as UTC.
   *
   * @throws IllegalArgumentException if the text is not a value of the type
   */
  public static Object decode(String value, DataType type) {
    return value == null || value.isEmpty() ? null : ValueText.parse(value, type);
  }

  /**
   * The typed partition values of {@code row} (a row of {@code schema}), keyed by the partition
   * columns' names as the schema spells them, in the given order.
   */
  public static LinkedHashMap<String, String> fromRow(StructType schema, List<String> partitionColumns, Row row) {
    LinkedHashMap<String, String> out = new LinkedHashMap<>();
    for (String column : partitionColumns) {
      int i = requireColumn(schema, column);
      out.put(schema.field(i).name(), encode(row.get(i), schema.field(i).type()));
    }
    return out;
  }

  /**
   * A row of {@code schema} holding the decoded partition values at the partition columns' positions
   * and null elsewhere. A partition column missing from {@code values} is null.
   *
   * @throws IllegalArgumentException if a value is not valid for its column's type (the message names
   *     the column)
   */
  public static Row toRow(StructType schema, Collection<String> partitionColumns, Map<String, String> values) {
    Object[] out = new Object[schema.size()];
    for (String column : partitionColumns) {
      int i = requireColumn(schema, column);
      String text = lookup(values, schema.field(i).name());
      try {
        out[i] = decode(text, schema.field(i).type());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "Partition value '" + text + "' of column '" + schema.field(i).name() + "' is not a valid "
                + schema.field(i).type() + ": " + e.getMessage(), e);
      }
    }
    return Row.of(out);
  }

  /**
   * The Hive-style folder for the given partition values in order: {@code col=value/col2=value2},
   * names and values escaped by {@link #escapePathName}, a null or empty value as
   * {@link #HIVE_DEFAULT_PARTITION}. Empty for no partition columns.
   */
  public static String partitionPath(LinkedHashMap<String, String> values) {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, String> e : values.entrySet()) {
      if (out.length() > 0) {
        out.append('/');
      }
      String v = e.getValue();
      out.append(escapePathName(e.getKey())).append('=')
          .append(v == null || v.isEmpty() ? HIVE_DEFAULT_PARTITION : escapePathName(v));
    }
    return out.toString();
  }

  /** Hive's {@code FileUtils.escapePathName}: {@code %XX} for the characters that are unsafe in a folder name. */
  public static String escapePathName(String name) {
    StringBuilder out = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < 128 && HIVE_ESCAPED.get(c)) {
        out.append('%').append(String.format(Locale.ROOT, "%02X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** The inverse of {@link #escapePathName}; a {@code %} not followed by two hex digits stays as is. */
  public static String unescapePathName(String name) {
    StringBuilder out = new StringBuilder(name.length());
    int i = 0;
    while (i < name.length()) {
      char c = name.charAt(i);
      int code = c == '%' && i + 2 < name.length() ? hex2(name, i + 1) : -1;
      if (code >= 0) {
        out.append((char) code);
        i += 3;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  /**
   * {@code add.path} for an object key relative to the table root: percent-encodes what
   * {@code java.net.URI} quotes in a path (as Spark's Hadoop {@code Path.toUri().toString()} does):
   * ASCII other than letters, digits and {@code -_.!~*'()@&=+$,;/}, plus space and control characters
   * beyond ASCII, as UTF-8 {@code %XX}. A {@code :} is encoded too, so a key can never read as a URI
   * scheme. Other non-ASCII characters stay as they are, which URI parsers accept.
   */
  public static String toLogPath(String relativeKey) {
    StringBuilder out = new StringBuilder(relativeKey.length() + 16);
    int i = 0;
    while (i < relativeKey.length()) {
      int cp = relativeKey.codePointAt(i);
      if (cp < 128 ? !isUriPathChar((char) cp) : Character.isSpaceChar(cp) || Character.isISOControl(cp)) {
        for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
          out.append('%').append(String.format(Locale.ROOT, "%02X", b & 0xFF));
        }
      } else {
        out.appendCodePoint(cp);
      }
      i += Character.charCount(cp);
    }
    return out.toString();
  }

  /**
   * The object key of a relative {@code add.path} (or the decoded form of an absolute one): decodes
   * every {@code %XX} as UTF-8; {@code +} stays a plus.
   *
   * @throws IllegalArgumentException if a {@code %} is not followed by two hex digits, or the escapes
   *     are not valid UTF-8
   */
  public static String fromLogPath(String addPath) {
    if (addPath.indexOf('%') < 0) {
      return addPath;
    }
    StringBuilder out = new StringBuilder(addPath.length());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int i = 0;
    while (i < addPath.length()) {
      char c = addPath.charAt(i);
      if (c != '%') {
        flush(bytes, out, addPath);
        out.append(c);
        i++;
        continue;
      }
      int code = i + 2 < addPath.length() ? hex2(addPath, i + 1) : -1;
      if (code < 0) {
        throw new IllegalArgumentException(
            "add.path '" + addPath + "' has a '%' at position " + i + " that is not followed by two hex digits;"
                + " the log must store paths URI-encoded (the writer of this entry did not)");
      }
      bytes.write(code);
      i += 3;
    }
    flush(bytes, out, addPath);
    return out.toString();
  }

  /** Whether {@code addPath} is an absolute URI ({@code s3://...}, {@code file:/...}) rather than relative. */
  public static boolean isAbsoluteLogPath(String addPath) {
    return addPath.startsWith("/") || (URI_SCHEME.matcher(addPath).matches() && schemeBeforeSlash(addPath));
  }

  private static boolean schemeBeforeSlash(String path) {
    int colon = path.indexOf(':');
    int slash = path.indexOf('/');
    return slash < 0 || colon < slash;
  }

  private static boolean isUriPathChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || "-_.!~*'()@&=+$,;/".indexOf(c) >= 0;
  }

  private static void flush(ByteArrayOutputStream bytes, StringBuilder out, String addPath) {
    if (bytes.size() == 0) {
      return;
    }
    try {
      out.append(StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray())));
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(
          "add.path '" + addPath + "' has %-escapes that are not valid UTF-8; the log entry is corrupt", e);
    }
    bytes.reset();
  }

  private static int hex2(String s, int at) {
    int hi = Character.digit(s.charAt(at), 16);
    int lo = Character.digit(s.charAt(at + 1), 16);
    return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
  }

  private static int requireColumn(StructType schema, String column) {
    int i = schema.indexOf(column);
    if (i < 0) {
      throw new IllegalArgumentException(
          "Partition column '" + column + "' is not in the table schema " + schema.fieldNames()
              + "; the table's metadata is inconsistent");
    }
    return i;
  }

  private static String lookup(Map<String, String> values, String column) {
    if (values.containsKey(column)) {
      return values.get(column);
    }
    for (Map.Entry<String, String> e : values.entrySet()) {
      if (e.getKey().equalsIgnoreCase(column)) {
        return e.getValue();
      }
    }
    return null;
  }
}
