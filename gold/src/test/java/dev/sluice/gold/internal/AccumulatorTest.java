package dev.sluice.gold.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class AccumulatorTest {
  static final DecimalType INPUT = DecimalType.of(18, 2);

  static Accumulator.Invertible sum() {
    DataType result = Accumulator.resultType(Measure.Function.SUM, INPUT, "sum(x)");
    return (Accumulator.Invertible) Accumulator.create(Measure.Function.SUM, INPUT, result);
  }

  @Test
  void decimalSumsStayExactPastTheRangeOfALong() {
    Accumulator.Invertible acc = sum();
    BigDecimal big = new BigDecimal("9999999999999999.99"); // 18 digits: the largest unscaled value kept as a long
    BigDecimal expected = BigDecimal.ZERO;
    for (int i = 0; i < 1000; i++) {
      acc.add(big, 1);
      expected = expected.add(big);
    }
    acc.add(new BigDecimal("0.01"), 1);
    expected = expected.add(new BigDecimal("0.01"));
    assertThat(acc.sum()).isEqualTo(expected);
    assertThat(acc.result()).isEqualTo(expected.setScale(2));
    for (int i = 0; i < 1000; i++) {
      acc.add(big, -1);
    }
    assertThat(acc.count()).isEqualTo(1);
    assertThat(acc.sum()).isEqualTo(new BigDecimal("0.01"));
  }

  @Test
  void decimalsOfAnotherScaleAndRestoredSumsAddExactly() {
    Accumulator.Invertible acc = sum();
    acc.add(new BigDecimal("1.25"), 1);
    acc.add(new BigDecimal("0.125"), 1); // not the column's scale: summed as BigDecimal from here on
    assertThat(acc.sum()).isEqualTo(new BigDecimal("1.375"));
    Accumulator.Invertible restored = sum();
    restored.restore(acc.count(), acc.sum());
    restored.add(new BigDecimal("0.625"), 1);
    assertThat(restored.sum()).isEqualTo(new BigDecimal("2.000"));
    assertThat(restored.result()).isEqualTo(new BigDecimal("2.00"));
  }

  @Test
  void takingBackEveryValueLeavesTheExactZeroOfAnEmptySum() {
    Accumulator.Invertible acc = sum();
    acc.add(new BigDecimal("3.10"), 1);
    assertThat(acc.sum()).isEqualTo(new BigDecimal("3.10"));
    acc.add(new BigDecimal("3.10"), -1);
    assertThat(acc.sum()).isEqualTo(BigDecimal.ZERO);
    assertThat(acc.result()).isNull();
  }
}
