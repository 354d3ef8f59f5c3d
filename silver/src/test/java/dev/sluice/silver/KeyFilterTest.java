package dev.sluice.silver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The MERGE's filter of a batch's keys never loses a key it holds, and lets few others through. */
class KeyFilterTest {
  @Test
  void holdsEveryKeyAddedAndFewOthers() {
    KeyFilter filter = new KeyFilter(100_000);
    for (int i = 0; i < 100_000; i++) {
      filter.add(key("o-" + i, i));
    }
    for (int i = 0; i < 100_000; i++) {
      assertThat(filter.mightHold(key("o-" + i, i))).as("key %d", i).isTrue();
    }
    int passed = 0;
    for (int i = 100_000; i < 200_000; i++) {
      passed += filter.mightHold(key("o-" + i, i)) ? 1 : 0;
    }
    assertThat(passed).as("keys let through of 100,000 not added").isLessThan(10_000);
  }

  private static List<Object> key(String id, long n) {
    return new KeyValues(new Object[] {id, n});
  }
}
