package dev.sluice.ingestion.source.internal.files;

import java.time.Instant;

/**
 * Reads the timestamp shapes that nearly all input has, {@code yyyy-MM-dd'T'HH:mm:ss[.f{1,9}][Z|±HH:MM]} (also
 * with a space or {@code t} for the {@code T}, {@code z} for the {@code Z}), with plain digit arithmetic. The
 * {@code java.time} parsers cost more than all the rest of reading a JSON line (each builds a field map per
 * value). Anything else, valid or not, gives null and is left to {@link TextValues#timestamp}'s {@code java.time}
 * path, so that what is accepted and every error stay exactly as that path has them: this class only returns
 * values that path returns too.
 */
final class IsoTimestamps {
  private static final long SECONDS_PER_DAY = 86_400;
  private static final int DAYS_0000_TO_1970 = 719_528;
  private static final int MAX_OFFSET_SECONDS = 18 * 3600;

  private IsoTimestamps() {}

  /** The instant at microsecond precision (finer digits dropped), or null when the text has another shape. */
  static Instant parse(String s) {
    return parse(s.toCharArray(), 0, s.length());
  }

  /**
   * The same for the {@code n} chars of {@code c} from {@code at}: the JSON reader passes the parser's own buffer,
   * so no {@code String} is made for a timestamp.
   */
  static Instant parse(char[] c, int at, int n) {
    if (n < 19 || c[at + 4] != '-' || c[at + 7] != '-' || !isSeparator(c[at + 10]) || c[at + 13] != ':'
        || c[at + 16] != ':') {
      return null;
    }
    int year = digits(c, at, at + 4);
    int month = digits(c, at + 5, at + 7);
    int day = digits(c, at + 8, at + 10);
    int hour = digits(c, at + 11, at + 13);
    int minute = digits(c, at + 14, at + 16);
    int second = digits(c, at + 17, at + 19);
    if (year < 1 || month < 1 || month > 12 || day < 1 || day > lengthOfMonth(year, month) || hour < 0 || hour > 23
        || minute < 0 || minute > 59 || second < 0 || second > 59) {
      return null; // also when a part is not all digits (negative)
    }
    int end = at + n;
    int i = at + 19;
    int nanos = 0;
    if (i < end && c[i] == '.') {
      int start = ++i;
      while (i < end && i - start < 10 && isDigit(c[i])) {
        nanos = nanos * 10 + (c[i] - '0');
        i++;
      }
      int count = i - start;
      if (count == 0 || count > 9) {
        return null;
      }
      for (int k = count; k < 9; k++) {
        nanos *= 10;
      }
    }
    int offset = offsetSeconds(c, i, end);
    if (offset == Integer.MIN_VALUE) {
      return null;
    }
    long seconds = epochDay(year, month, day) * SECONDS_PER_DAY + hour * 3600L + minute * 60L + second - offset;
    return Instant.ofEpochSecond(seconds, nanos - nanos % 1000);
  }

  /** The offset from {@code i} to {@code end}: none or {@code Z} is 0; Integer.MIN_VALUE when it isn't one of ours. */
  private static int offsetSeconds(char[] s, int i, int end) {
    if (i == end) {
      return 0;
    }
    char c = s[i];
    if ((c == 'Z' || c == 'z') && i + 1 == end) {
      return 0;
    }
    if ((c != '+' && c != '-') || end - i != 6 || s[i + 3] != ':') {
      return Integer.MIN_VALUE;
    }
    int hours = digits(s, i + 1, i + 3);
    int minutes = digits(s, i + 4, i + 6);
    if (hours < 0 || minutes < 0 || minutes > 59) {
      return Integer.MIN_VALUE;
    }
    int total = hours * 3600 + minutes * 60;
    if (total > MAX_OFFSET_SECONDS) {
      return Integer.MIN_VALUE;
    }
    return c == '-' ? -total : total;
  }

  private static boolean isSeparator(char c) {
    return c == 'T' || c == 't' || c == ' ';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** The number of ASCII digits in [from, to), or -1 if any is not one. */
  private static int digits(char[] s, int from, int to) {
    int v = 0;
    for (int i = from; i < to; i++) {
      char c = s[i];
      if (!isDigit(c)) {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  private static boolean isLeap(int year) {
    return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
  }

  private static int lengthOfMonth(int year, int month) {
    return switch (month) {
      case 2 -> isLeap(year) ? 29 : 28;
      case 4, 6, 9, 11 -> 30;
      default -> 31;
    };
  }

  /** Days since 1970-01-01 of a proleptic Gregorian date (LocalDate.toEpochDay's arithmetic, years >= 1). */
  private static long epochDay(int year, int month, int day) {
    long y = year;
    long total = 365 * y + (y + 3) / 4 - (y + 99) / 100 + (y + 399) / 400;
    total += (367 * month - 362) / 12;
    total += day - 1;
    if (month > 2) {
      total -= isLeap(year) ? 1 : 2;
    }
    return total - DAYS_0000_TO_1970;
  }
}
