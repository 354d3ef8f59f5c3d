package dev.sluice.table.internal.expressions;

import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * Delta's text form of a typed value (partition values, string literals): numbers as decimal strings,
 * {@code true}/{@code false}, dates {@code yyyy-MM-dd}, binary as its UTF-8 text.
 *
 * <p>Timestamps are written as ISO-8601 UTC with microseconds, {@code 2021-09-08T11:11:11.000000Z},
 * the form the protocol recommends: Spark (with {@code utcTimestampPartitionValues}, the default since
 * Delta 3.3) and Kernel both read it as an exact instant. The older {@code 2021-09-08 11:11:11[.ffffff]}
 * form carries no zone (Spark reads it in the session time zone, Kernel in the JVM's), so it is only
 * read, and read as UTC; ISO text with any offset is read too.
 */
public final class ValueText {
  private static final DateTimeFormatter TIMESTAMP_OUT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter SPACED_LOCAL =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .appendLiteral(' ')
          .append(DateTimeFormatter.ISO_LOCAL_TIME)
          .toFormatter(Locale.ROOT);

  private ValueText() {}

  /**
   * The text form of {@code value}, which must follow the Java mapping of {@code type}.
   *
   * @throws IllegalArgumentException if the value does not fit the type, or the type has no text form
   */
  public static String format(Object value, DataType type) {
    java.util.Objects.requireNonNull(value, "value");
    if (type instanceof DecimalType d) {
      return toDecimal(value, d).toPlainString();
    }
    PrimitiveType p = primitive(type);
    return switch (p) {
      case STRING -> expect(value, String.class, type);
      case LONG -> Long.toString(integral(value, Long.MIN_VALUE, Long.MAX_VALUE, type));
      case INTEGER -> Long.toString(integral(value, Integer.MIN_VALUE, Integer.MAX_VALUE, type));
      case SHORT -> Long.toString(integral(value, Short.MIN_VALUE, Short.MAX_VALUE, type));
      case BYTE -> Long.toString(integral(value, Byte.MIN_VALUE, Byte.MAX_VALUE, type));
      case DOUBLE -> Double.toString(value instanceof Float f ? f.doubleValue() : expect(value, Double.class, type));
      case FLOAT -> Float.toString(expect(value, Float.class, type));
      case BOOLEAN -> Boolean.toString(expect(value, Boolean.class, type));
      case DATE -> expect(value, LocalDate.class, type).toString();
      case TIMESTAMP -> TIMESTAMP_OUT.format(expect(value, Instant.class, type));
      case BINARY -> utf8(expect(value, byte[].class, type));
      default -> throw unsupported(type);
    };
  }

  /**
   * The value of {@code text} as {@code type}'s Java class.
   *
   * @throws IllegalArgumentException if the text is not a valid value of the type
   */
  public static Object parse(String text, DataType type) {
    try {
      if (type instanceof DecimalType d) {
        return toDecimal(new BigDecimal(text.trim()), d);
      }
      return switch (primitive(type)) {
        case STRING -> text;
        case LONG -> Long.parseLong(text.trim());
        case INTEGER -> Integer.parseInt(text.trim());
        case SHORT -> Short.parseShort(text.trim());
        case BYTE -> Byte.parseByte(text.trim());
        case DOUBLE -> Double.parseDouble(text);
        case FLOAT -> Float.parseFloat(text);
        case BOOLEAN -> parseBoolean(text);
        case DATE -> LocalDate.parse(text.trim());
        case TIMESTAMP -> parseTimestamp(text);
        case BINARY -> text.getBytes(StandardCharsets.UTF_8);
        default -> throw unsupported(type);
      };
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException("'" + text + "' is not a valid " + type + " value", e);
    }
  }

  /**
   * Reads ISO-8601 with an offset ({@code 2021-09-08T11:11:11.5Z}, {@code ...+02:00}), or without one
   * ({@code 2021-09-08 11:11:11[.ffffff]}, {@code 2021-09-08T11:11:11}, {@code 2021-09-08}) as UTC.
   */
  public static Instant parseTimestamp(String text) {
    String t = text.trim();
    if (t.length() > 10 && (t.endsWith("Z") || t.endsWith("z") || hasOffset(t))) {
      return OffsetDateTime.parse(t.replace(' ', 'T').toUpperCase(Locale.ROOT)).toInstant();
    }
    if (t.length() == 10) {
      return LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant();
    }
    LocalDateTime local = t.indexOf('T') > 0 ? LocalDateTime.parse(t) : LocalDateTime.parse(t, SPACED_LOCAL);
    return local.toInstant(ZoneOffset.UTC);
  }

  private static boolean hasOffset(String t) {
    int time = Math.max(t.indexOf('T'), t.indexOf(' '));
    return time > 0 && (t.indexOf('+', time) > 0 || t.indexOf('-', time) > 0);
  }

  private static Boolean parseBoolean(String text) {
    String t = text.trim();
    if (t.equalsIgnoreCase("true")) {
      return true;
    }
    if (t.equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException("'" + text + "' is not a valid boolean value: expected true or false");
  }

  private static BigDecimal toDecimal(Object value, DecimalType type) {
    BigDecimal d;
    if (value instanceof BigDecimal b) {
      d = b;
    } else if (value instanceof BigInteger || value instanceof Long || value instanceof Integer
        || value instanceof Short || value instanceof Byte) {
      d = ValueOrder.toBigDecimal((Number) value);
    } else {
      throw mismatch(value, type);
    }
    BigDecimal scaled;
    try {
      scaled = d.setScale(type.scale(), RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          d.toPlainString() + " has more than " + type.scale() + " fractional digits, so it is not a " + type + " value");
    }
    if (scaled.precision() - scaled.scale() > type.precision() - type.scale()) {
      throw new IllegalArgumentException(d.toPlainString() + " has too many integer digits for " + type);
    }
    return scaled;
  }

  private static long integral(Object value, long min, long max, DataType type) {
    if (!(value instanceof Number n) || !ValueOrder.isIntegral(n)) {
      throw mismatch(value, type);
    }
    long v = n.longValue();
    if (v < min || v > max) {
      throw new IllegalArgumentException(v + " is out of range for " + type);
    }
    return v;
  }

  private static <T> T expect(Object value, Class<T> javaClass, DataType type) {
    if (!javaClass.isInstance(value)) {
      throw mismatch(value, type);
    }
    return javaClass.cast(value);
  }

  private static String utf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(
          "A binary value that is not valid UTF-8 has no text form (Delta stores binary partition values as text);"
              + " use a string or long column to partition by it", e);
    }
  }

  private static PrimitiveType primitive(DataType type) {
    if (type instanceof PrimitiveType p) {
      return p;
    }
    throw unsupported(type);
  }

  private static IllegalArgumentException unsupported(DataType type) {
    return new IllegalArgumentException("Values of type " + type + " have no text form in Delta");
  }

  private static IllegalArgumentException mismatch(Object value, DataType type) {
    return new IllegalArgumentException(
        "Value " + value + " (" + value.getClass().getSimpleName() + ") is not a " + type
            + " value; see the Java mapping documented on DataType");
  }
}
