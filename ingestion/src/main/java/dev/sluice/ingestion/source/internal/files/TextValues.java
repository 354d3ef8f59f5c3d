package dev.sluice.ingestion.source.internal.files;

import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Locale;

/** Converts text (a CSV field, a JSON string) to the Java value of a column type. */
final class TextValues {
  /** The timestamps a source accepts: years 0001 to 9999, as Spark and SQL engines support them. */
  static final Instant MIN_TIMESTAMP = Instant.parse("0001-01-01T00:00:00Z");
  static final Instant MAX_TIMESTAMP = Instant.parse("9999-12-31T23:59:59.999999Z");
  private static final String RANGE = "the supported range 0001-01-01 to 9999-12-31";

  private TextValues() {}

  /** Why a value does not fit its column; the message names the field, the type and the value. */
  static final class BadValue extends Exception {
    BadValue(String field, DataType type, String value, String why) {
      super("field '" + field + "': cannot read " + abbreviate(value) + " as " + type + (why.isEmpty() ? "" : " (" + why + ")"),
          null, false, false);
    }

    BadValue(String message) {
      super(message, null, false, false);
    }
  }

  static Object parse(String text, DataType type, String field) throws BadValue {
    try {
      if (type instanceof DecimalType d) {
        return decimal(new BigDecimal(text.trim()), d, field);
      }
      if (!(type instanceof PrimitiveType p)) {
        throw new BadValue(field, type, text, "text cannot hold a " + type.typeName());
      }
      return switch (p) {
        case STRING -> text;
        case LONG -> Long.parseLong(text.trim());
        case INTEGER -> Integer.parseInt(text.trim());
        case SHORT -> Short.parseShort(text.trim());
        case BYTE -> Byte.parseByte(text.trim());
        case DOUBLE -> parseDouble(text.trim());
        case FLOAT -> (float) parseDouble(text.trim());
        case BOOLEAN -> parseBoolean(text.trim(), field);
        case DATE -> LocalDate.parse(text.trim());
        case TIMESTAMP -> inRange(timestamp(text.trim()), text, field);
        case BINARY -> Base64.getDecoder().decode(text.trim());
        case TIMESTAMP_NTZ -> throw new BadValue(field, type, text, "timestamp_ntz is not supported; use timestamp");
      };
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new BadValue(field, type, text, "");
    } catch (IllegalArgumentException e) {
      throw new BadValue(field, type, text, "not base64");
    }
  }

  /**
   * {@code value} at the column's scale, exactly: a value with more fraction digits than the scale (other than
   * trailing zeros) or more integer digits than precision minus scale doesn't fit, so that the source keeps the
   * original (rescued, or a corrupt record) instead of rounding it away. Rounding is an explicit CAST.
   */
  static BigDecimal decimal(BigDecimal value, DecimalType type, String field) throws BadValue {
    BigDecimal scaled;
    try {
      scaled = value.setScale(type.scale(), RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new BadValue(field, type, value.toPlainString(), "more than " + type.scale() + " decimal places; rounding"
          + " would lose digits. Widen the scale, or read the field as a string and CAST it where rounding is wanted");
    }
    if (scaled.precision() > type.precision()) {
      throw new BadValue(field, type, value.toPlainString(), "more than " + type.precision() + " digits");
    }
    return scaled;
  }

  /**
   * {@code seconds} since the epoch as a timestamp, as Spark reads a JSON number; outside the supported range it
   * doesn't fit (epoch milliseconds read as seconds land tens of thousands of years ahead).
   */
  static Instant epochSeconds(long seconds, String field) throws BadValue {
    if (seconds < MIN_TIMESTAMP.getEpochSecond() || seconds > MAX_TIMESTAMP.getEpochSecond()) {
      throw new BadValue(field, PrimitiveType.TIMESTAMP, Long.toString(seconds), "a number is read as epoch seconds,"
          + " and this one is outside " + RANGE + "; if it holds epoch milliseconds or microseconds, declare the"
          + " field as long and convert it with timestamp_millis(...) or timestamp_micros(...)");
    }
    return Instant.ofEpochSecond(seconds);
  }

  /**
   * The timestamp of {@code n} chars of {@code c} from {@code at} when they have the common ISO shape and the instant
   * is in the supported range; null otherwise, and {@link #parse} then reads the text (and words the error).
   */
  static Instant plainTimestamp(char[] c, int at, int n) {
    Instant t = IsoTimestamps.parse(c, at, n);
    return t != null && inRange(t) ? t : null;
  }

  private static boolean inRange(Instant t) {
    return !t.isBefore(MIN_TIMESTAMP) && !t.isAfter(MAX_TIMESTAMP);
  }

  private static Instant inRange(Instant t, String text, String field) throws BadValue {
    if (!inRange(t)) {
      throw new BadValue(field, PrimitiveType.TIMESTAMP, text, "outside " + RANGE);
    }
    return t;
  }

  /** An ISO-8601 instant, offset date-time, local date-time (read as UTC) or date (midnight UTC); microsecond precision. */
  static Instant timestamp(String text) {
    Instant fast = IsoTimestamps.parse(text);
    return fast != null ? fast : javaTimeTimestamp(text);
  }

  /** {@link #timestamp} by {@code java.time} alone: the definition of what is accepted, for every shape. */
  static Instant javaTimeTimestamp(String text) {
    Instant instant;
    if (text.length() <= 10) {
      instant = LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant();
    } else {
      String iso = text.length() > 10 && text.charAt(10) == ' ' ? text.substring(0, 10) + 'T' + text.substring(11) : text;
      char last = iso.charAt(iso.length() - 1);
      boolean zoned = last == 'Z' || last == 'z' || iso.lastIndexOf('+') > 10 || iso.lastIndexOf('-') > 10;
      instant = zoned ? OffsetDateTime.parse(iso.replace('z', 'Z')).toInstant()
          : LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC);
    }
    return instant.truncatedTo(ChronoUnit.MICROS);
  }

  /** True if {@code text} reads as a timestamp with a time part (used by schema inference). */
  static boolean isTimestamp(String text) {
    if (text.length() < 16 || !Character.isDigit(text.charAt(0))) {
      return false;
    }
    try {
      timestamp(text);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private static double parseDouble(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "nan" -> Double.NaN;
      case "infinity", "+infinity", "inf" -> Double.POSITIVE_INFINITY;
      case "-infinity", "-inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(text);
    };
  }

  private static boolean parseBoolean(String text, String field) throws BadValue {
    if (text.equalsIgnoreCase("true")) {
      return true;
    }
    if (text.equalsIgnoreCase("false")) {
      return false;
    }
    throw new BadValue(field, PrimitiveType.BOOLEAN, text, "");
  }

  static String abbreviate(String value) {
    String v = value.length() > 60 ? value.substring(0, 57) + "..." : value;
    return "'" + v + "'";
  }
}
