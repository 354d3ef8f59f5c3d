package dev.sluice.ingestion.source.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.types.PrimitiveType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The digit-arithmetic timestamp reader agrees with the {@code java.time} one on every text: the same instant
 * where both read it, and where the fast one declines, {@link TextValues#timestamp} still gives what
 * {@code java.time} gives (a value, or the same error).
 */
class IsoTimestampsTest {
  @Test
  void readsTheCommonShapesWithoutJavaTime() {
    assertThat(IsoTimestamps.parse("2023-12-31T23:58:51.220Z")).isEqualTo(Instant.parse("2023-12-31T23:58:51.220Z"));
    assertThat(IsoTimestamps.parse("2024-02-29 10:00:00")).isEqualTo(Instant.parse("2024-02-29T10:00:00Z"));
    assertThat(IsoTimestamps.parse("2024-03-01T01:30:00+02:30")).isEqualTo(Instant.parse("2024-02-29T23:00:00Z"));
    assertThat(IsoTimestamps.parse("2024-01-01T00:00:00.123456789-08:00"))
        .isEqualTo(Instant.parse("2024-01-01T08:00:00.123456Z"));
  }

  @Test
  void declinesWhatItDoesNotKnowSoJavaTimeDecides() {
    for (String s : List.of("2024-01-01T10:15", "2024-01-01", "+12024-01-01T00:00:00Z", "2024-01-01T10:15:30+05",
        "2024-01-01T10:15:30+05:30:15", "2024-01-01T10:15:30.Z", "2024-01-01T10:15:30.1234567890Z",
        "2023-02-29T00:00:00Z", "2024-04-31T00:00:00", "2024-13-01T00:00:00", "2024-01-01T24:00:00",
        "2024-01-01T23:59:60Z", "0000-01-01T00:00:00Z", "2024-01-01T00:00:00+18:01", "2024-01-01X00:00:00",
        "2024-01-01T00:00:00 ", "2024-01-01T00:00:00UTC", "2024-01-01T-1:00:00")) {
      assertThat(IsoTimestamps.parse(s)).as(s).isNull();
    }
  }

  @Test
  void agreesWithJavaTimeOnEdgeCases() {
    List<String> cases = new ArrayList<>(List.of(
        "2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "2000-02-29T12:00:00", "1900-02-29T12:00:00",
        "2100-02-28T23:59:59.999999999Z", "0001-01-01T00:00:00Z", "0001-01-01T00:00:00+01:00",
        "9999-12-31T23:59:59.999999Z", "9999-12-31T23:59:59.9999999Z", "9999-12-31T23:59:59-01:00",
        "1969-12-31T23:59:59.5Z", "1970-01-01T00:00:00Z", "1970-01-01 00:00:00.1", "2024-01-01t10:00:00z",
        "2024-01-01T10:00:00+00:00", "2024-01-01T10:00:00-00:00", "2024-01-01T10:00:00+18:00",
        "2024-01-01T10:00:00-18:00", "2024-01-01T10:00:00+19:00", "2024-01-01T10:00:00+05:60",
        "2024-06-30T23:59:60Z", "2024-01-01T10:15", "2024-01-01T10:15Z", "2024-01-01", "2024-1-01T00:00:00",
        "2024-01-01T1:00:00", "2024-01-01T10:00:00.", "2024-01-01T10:00:00.1234567891Z", "2024-01-01T10:00:00+0530",
        "2024-01-01T10:00:00+05", "2024-01-01T10:00:00 +05:00", "2024-01-01  10:00:00", "not a timestamp",
        "2024-01-01T10:00:00Zjunk", "2024-01-01T10:00:00ZZ", "2024-0a-01T00:00:00", "2024-01-01T00:00:00.12a",
        "+2024-01-01T00:00:00Z", "-2024-01-01T00:00:00Z", "2024-01-01T00:00:00.000000001Z",
        "2024-01-01T00:00:00.999999999-18:00", "2024-12-31T23:59:59.1234+14:00"));
    for (int f = 1; f <= 9; f++) {
      cases.add("2024-05-17T08:09:10." + "123456789".substring(0, f) + "Z");
      cases.add("2024-05-17 08:09:10." + "987654321".substring(0, f));
      cases.add("2024-05-17T08:09:10." + "000000001".substring(0, f) + "+03:45");
    }
    for (String s : cases) {
      assertAgrees(s);
    }
  }

  @Test
  void agreesWithJavaTimeOnRandomDates() {
    Random random = new Random(42);
    for (int i = 0; i < 5_000; i++) {
      String s = String.format("%04d-%02d-%02d%c%02d:%02d:%02d%s%s", 1 + random.nextInt(9999), 1 + random.nextInt(13),
          1 + random.nextInt(31), "T T".charAt(random.nextInt(3)), random.nextInt(25), random.nextInt(61),
          random.nextInt(61), fraction(random), offset(random));
      assertAgrees(s);
    }
  }

  @Test
  void aBadTimestampIsTheSameBadValueAsBefore() {
    assertThat(outcome("2023-02-29T00:00:00Z")).isEqualTo(slowOutcome("2023-02-29T00:00:00Z"))
        .startsWith("error: field 'f': cannot read '2023-02-29T00:00:00Z' as timestamp");
    assertThat(outcome("0001-01-01T00:00:00+01:00")).isEqualTo(slowOutcome("0001-01-01T00:00:00+01:00"))
        .contains("outside the supported range");
  }

  private static String fraction(Random random) {
    int digits = random.nextInt(11);
    if (digits == 0) {
      return "";
    }
    StringBuilder sb = new StringBuilder(".");
    for (int i = 1; i < digits; i++) {
      sb.append((char) ('0' + random.nextInt(10)));
    }
    return sb.toString();
  }

  private static String offset(Random random) {
    return switch (random.nextInt(4)) {
      case 0 -> "";
      case 1 -> "Z";
      default -> String.format("%c%02d:%02d", random.nextBoolean() ? '+' : '-', random.nextInt(20), random.nextInt(61));
    };
  }

  private static void assertAgrees(String s) {
    Instant fast = IsoTimestamps.parse(s);
    if (fast != null) {
      assertThat(fast).as(s).isEqualTo(TextValues.javaTimeTimestamp(s));
    }
    assertThat(outcome(s)).as(s).isEqualTo(slowOutcome(s));
  }

  /** What the column reader makes of the text: the value, or the error message. */
  private static String outcome(String s) {
    try {
      return "value: " + TextValues.parse(s, PrimitiveType.TIMESTAMP, "f");
    } catch (TextValues.BadValue e) {
      return "error: " + e.getMessage();
    }
  }

  private static String slowOutcome(String s) {
    try {
      Instant t = TextValues.javaTimeTimestamp(s.trim());
      if (t.isBefore(TextValues.MIN_TIMESTAMP) || t.isAfter(TextValues.MAX_TIMESTAMP)) {
        return "error: " + new TextValues.BadValue("f", PrimitiveType.TIMESTAMP, s,
            "outside the supported range 0001-01-01 to 9999-12-31").getMessage();
      }
      return "value: " + t;
    } catch (java.time.DateTimeException e) {
      return "error: " + new TextValues.BadValue("f", PrimitiveType.TIMESTAMP, s, "").getMessage();
    }
  }
}
