package dev.sluice.gold.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** Group ids are equal exactly when the group key texts are. */
class GroupIdTest {
  static GroupId id(long start, Object... values) {
    Object[] canonical = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      canonical[i] = GroupId.canonical(values[i]);
    }
    return new GroupId(true, start, canonical);
  }

  static String text(Object... values) {
    return GroupKeys.render("w", values);
  }

  @Test
  void equalExactlyWhenTheKeyTextsAre() {
    assertThat(id(0, new BigDecimal("1.50"))).isEqualTo(id(0, new BigDecimal("1.5")));
    assertThat(text(new BigDecimal("1.50"))).isEqualTo(text(new BigDecimal("1.5")));
    assertThat(id(0, new BigDecimal("0.00"))).isEqualTo(id(0, BigDecimal.ZERO));
    assertThat(id(0, new byte[] {1, 2})).isEqualTo(id(0, new byte[] {1, 2}));
    assertThat(id(0, "a", null)).isEqualTo(id(0, "a", null)).hasSameHashCodeAs(id(0, "a", null));
    assertThat(id(0, -0.0d)).isNotEqualTo(id(0, 0.0d));
    assertThat(text(-0.0d)).isNotEqualTo(text(0.0d));
    assertThat(id(0, "a")).isNotEqualTo(id(60_000_000, "a"));
    assertThat(new GroupId(false, 0, new Object[] {"a"})).isNotEqualTo(id(0, "a"));
  }

  @Test
  void aCopyKeepsItsGroupWhenTheProbeIsSetAgain() {
    Object[] values = {"gold"};
    GroupId probe = new GroupId(true, 0, values);
    GroupId copy = probe.copy();
    values[0] = "silver";
    probe.set(true, 60_000_000, values);

    assertThat(copy).isEqualTo(id(0, "gold")).hasSameHashCodeAs(id(0, "gold"));
    assertThat(probe).isEqualTo(id(60_000_000, "silver")).hasSameHashCodeAs(id(60_000_000, "silver"));
  }
}
