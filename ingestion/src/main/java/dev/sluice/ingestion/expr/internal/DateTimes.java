package dev.sluice.ingestion.expr.internal;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalAdjusters;
import java.time.temporal.TemporalQueries;
import java.util.Locale;

/** Date and timestamp parsing, formatting and truncation; every timestamp is read and written in UTC. */
final class DateTimes {
  /** {@code yyyy-MM-dd HH:mm:ss[.fraction]}, also with a {@code T}, as Spark casts strings. */
  private static final DateTimeFormatter LOCAL_DATE_TIME =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .optionalStart().appendLiteral(' ').optionalEnd()
          .optionalStart().appendLiteral('T').optionalEnd()
          .appendValue(ChronoField.HOUR_OF_DAY, 2)
          .appendLiteral(':')
          .appendValue(ChronoField.MINUTE_OF_HOUR, 2)
          .optionalStart()
          .appendLiteral(':')
          .appendValue(ChronoField.SECOND_OF_MINUTE, 2)
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .optionalEnd()
          .optionalEnd()
          .optionalStart().appendOffsetId().optionalEnd()
          .optionalStart().appendLiteral('Z').optionalEnd()
          .toFormatter(Locale.ROOT);

  private static final DateTimeFormatter TIMESTAMP_TEXT =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 6, true)
          .optionalEnd()
          .toFormatter(Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  /** The timestamps of years 0001 to 9999 (as Spark and SQL engines support them), in epoch microseconds. */
  private static final java.math.BigDecimal MIN_MICROS = java.math.BigDecimal.valueOf(-62135596800_000000L);
  private static final java.math.BigDecimal MAX_MICROS = java.math.BigDecimal.valueOf(253402300799_999999L);

  private DateTimes() {}

  /** A timestamp from ISO-8601 or {@code yyyy-MM-dd[ HH:mm[:ss[.f]]]}, without zone read as UTC; null when invalid. */
  static Instant parseTimestamp(String text) {
    String s = text.trim();
    try {
      if (s.length() <= 10) {
        LocalDate date = parseDate(s);
        return date == null ? null : date.atStartOfDay(ZoneOffset.UTC).toInstant();
      }
      TemporalAccessor parsed = LOCAL_DATE_TIME.parse(s);
      LocalDateTime local = LocalDateTime.of(LocalDate.from(parsed), LocalTime.from(parsed));
      ZoneOffset offset = parsed.query(TemporalQueries.offset());
      return local.toInstant(offset == null ? ZoneOffset.UTC : offset);
    } catch (DateTimeParseException | ArithmeticException e) {
      return null;
    }
  }

  /** A date from {@code yyyy-MM-dd} (optionally followed by a time, which is dropped); null when invalid. */
  static LocalDate parseDate(String text) {
    String s = text.trim();
    int cut = indexOfAny(s, 'T', ' ');
    String day = cut < 0 ? s : s.substring(0, cut);
    try {
      String[] parts = day.split("-", -1);
      return switch (parts.length) {
        case 1 -> LocalDate.of(Integer.parseInt(parts[0]), 1, 1);
        case 2 -> LocalDate.of(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), 1);
        case 3 -> LocalDate.of(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
        default -> null;
      };
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static int indexOfAny(String s, char a, char b) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) == a || s.charAt(i) == b) {
        return i;
      }
    }
    return -1;
  }

  /** A timestamp from text in a {@link DateTimeFormatter} pattern; fields it lacks are midnight/UTC; null when invalid. */
  static Instant parseTimestamp(String text, DateTimeFormatter format) {
    try {
      TemporalAccessor parsed = format.parse(text.trim());
      if (parsed.isSupported(ChronoField.INSTANT_SECONDS)) {
        return Instant.from(parsed);
      }
      LocalDate date = parsed.query(TemporalQueries.localDate());
      if (date == null) {
        return null;
      }
      LocalTime time = parsed.query(TemporalQueries.localTime());
      ZoneOffset offset = parsed.query(TemporalQueries.offset());
      return LocalDateTime.of(date, time == null ? LocalTime.MIDNIGHT : time)
          .toInstant(offset == null ? ZoneOffset.UTC : offset);
    } catch (DateTimeParseException | ArithmeticException e) {
      return null;
    }
  }

  /** A Java pattern as a formatter; fields missing from the text do not fail the parse. */
  static DateTimeFormatter pattern(String pattern) {
    return DateTimeFormatter.ofPattern(pattern, Locale.ROOT);
  }

  /** Spark's text for a timestamp cast to string (UTC), e.g. {@code 2024-01-02 03:04:05.5}. */
  static String format(Instant t) {
    String s = TIMESTAMP_TEXT.format(t);
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }

  /**
   * The timestamp {@code value * 10^-exponent} seconds after the epoch ({@code exponent} 0: seconds, 3: millis,
   * 6: micros), truncated to the microsecond; null outside years 0001-9999.
   */
  static Instant fromEpoch(java.math.BigDecimal value, int exponent) {
    java.math.BigDecimal micros = value.movePointRight(6 - exponent).setScale(0, java.math.RoundingMode.FLOOR);
    if (micros.compareTo(MIN_MICROS) < 0 || micros.compareTo(MAX_MICROS) > 0) {
      return null;
    }
    long m = micros.longValueExact();
    return Instant.ofEpochSecond(Math.floorDiv(m, 1_000_000L), Math.floorMod(m, 1_000_000L) * 1000L);
  }

  /** Microseconds since the epoch, exactly (a timestamp has microsecond precision). */
  static long toEpochMicros(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
  }

  static LocalDate toDate(Instant t) {
    return LocalDate.ofInstant(t, ZoneOffset.UTC);
  }

  static Instant toTimestamp(LocalDate d) {
    return d.atStartOfDay(ZoneOffset.UTC).toInstant();
  }

  /** Whether {@code unit} is one that {@link #truncate} knows. */
  static boolean isTruncationUnit(String unit) {
    return switch (unit.toLowerCase(Locale.ROOT)) {
      case "second", "minute", "hour", "day", "dd", "week", "month", "mon", "mm", "quarter", "year", "yyyy", "yy" -> true;
      default -> false;
    };
  }

  /** {@code date_trunc(unit, t)} in UTC; weeks start on Monday, as in Spark. */
  static Instant truncate(String unit, Instant t) {
    ZonedDateTime z = t.atZone(ZoneOffset.UTC);
    ZonedDateTime out = switch (unit.toLowerCase(Locale.ROOT)) {
      case "second" -> z.truncatedTo(ChronoUnit.SECONDS);
      case "minute" -> z.truncatedTo(ChronoUnit.MINUTES);
      case "hour" -> z.truncatedTo(ChronoUnit.HOURS);
      case "day", "dd" -> z.truncatedTo(ChronoUnit.DAYS);
      case "week" -> z.truncatedTo(ChronoUnit.DAYS).with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
      case "month", "mon", "mm" -> z.truncatedTo(ChronoUnit.DAYS).withDayOfMonth(1);
      case "quarter" -> z.truncatedTo(ChronoUnit.DAYS).withDayOfMonth(1)
          .withMonth((z.getMonthValue() - 1) / 3 * 3 + 1);
      case "year", "yyyy", "yy" -> z.truncatedTo(ChronoUnit.DAYS).withDayOfYear(1);
      default -> null;
    };
    return out == null ? null : out.toInstant();
  }

  static OffsetDateTime utc(Instant t) {
    return t.atOffset(ZoneOffset.UTC);
  }
}
