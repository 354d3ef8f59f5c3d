package dev.sluice.gold.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Gold tables are MERGEd by {@code _group_key}: the direct rendering must equal what ObjectMapper wrote. */
class GroupKeysTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How keys were rendered before {@link GroupKeys}: canonical parts through ObjectMapper. */
  private static String jackson(Instant windowStart, Object[] values) throws Exception {
    List<Object> parts = new ArrayList<>();
    if (windowStart != null) {
      parts.add(windowStart.toString());
    }
    for (Object v : values) {
      if (v instanceof BigDecimal d) {
        parts.add(d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString());
      } else if (v instanceof byte[] b) {
        parts.add(Base64.getEncoder().encodeToString(b));
      } else if (v instanceof String || v instanceof Number || v instanceof Boolean || v == null) {
        parts.add(v);
      } else {
        parts.add(v.toString());
      }
    }
    return JSON.writeValueAsString(parts);
  }

  private static String key(Instant windowStart, Object[] values) {
    return new GroupAggregation.Group(values, windowStart, windowStart == null ? null : windowStart.plusSeconds(60))
        .key();
  }

  @Test
  void everyKindOfValueRendersAsObjectMapperDid() throws Exception {
    List<Object> values = new ArrayList<>(List.of("", "plain", "quote \" and backslash \\", "tab\tnew\nline\rcr",
        "\b\f\u0000\u0001\u001f\u007f", "é ü ß 日本語 😀", "\ud800 lone surrogate", "\u2028\u2029 separators", "</script>",
        0L, -1L, Long.MAX_VALUE, Long.MIN_VALUE, 42, Integer.MIN_VALUE, (short) -7, (byte) 127, BigInteger.TEN.pow(30),
        0.0, -0.0, 1.5, 1e-7, 1e21, 123456789.123, Double.MAX_VALUE, Double.MIN_VALUE, Double.NaN,
        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.1f, -3.25f, Float.NaN, Float.NEGATIVE_INFINITY,
        new BigDecimal("0.00"), new BigDecimal("10.50"), new BigDecimal("-0.001"), new BigDecimal("1E+5"),
        new BigDecimal("123456789012345678901234567890.123456"), true, false,
        new byte[0], new byte[] {0, -1, 127, -128, 34, 92}, LocalDate.of(2026, 1, 1),
        Instant.parse("2026-01-01T10:00:00Z"), Instant.parse("1969-12-31T23:59:59.999999Z"), List.of(1, "a"),
        Map.of("k", "v")));
    values.add(null);
    for (Object v : values) {
      Object[] one = {v};
      assertThat(key(null, one)).as("%s", v).isEqualTo(jackson(null, one));
      Instant start = Instant.parse("2026-01-01T10:01:00Z");
      Object[] two = {v, "tier", null};
      assertThat(key(start, two)).as("%s windowed", v).isEqualTo(jackson(start, two));
    }
    assertThat(key(null, new Object[0])).isEqualTo(jackson(null, new Object[0]));
  }

  @Test
  void randomStringsAndNumbersRenderAsObjectMapperDid() throws Exception {
    Random random = new Random(42);
    for (int n = 0; n < 20_000; n++) {
      StringBuilder s = new StringBuilder();
      for (int c = random.nextInt(12); c > 0; c--) {
        s.append((char) (random.nextBoolean() ? random.nextInt(0x80) : random.nextInt(0x10000)));
      }
      Object[] values = {s.toString(), random.nextLong(), Double.longBitsToDouble(random.nextLong()),
          Float.intBitsToFloat(random.nextInt()), BigDecimal.valueOf(random.nextLong(), random.nextInt(20) - 5),
          random.nextBoolean() ? null : random.nextInt()};
      Instant start = Instant.ofEpochSecond(random.nextInt(), random.nextInt(1_000_000) * 1000L);
      assertThat(key(start, values)).isEqualTo(jackson(start, values));
    }
  }
}
