package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DictionaryHintsTest {
  private final DictionaryHints hints = DictionaryHints.create();

  @Test
  void aColumnIsTriedWithADictionaryUntilAFileShowsItFallsBack() {
    assertThat(hints.plain("id")).isFalse();

    hints.record("id", DictionaryHints.MIN_VALUES, true /* fellBack */);

    assertThat(hints.plain("id")).isTrue();
    assertThat(hints.plain("customer")).isFalse();
  }

  @Test
  void aColumnWrittenPlainIsTriedAgainEveryRetryAfterFiles() {
    hints.record("id", DictionaryHints.MIN_VALUES, true /* fellBack */);
    for (int i = 0; i < DictionaryHints.RETRY_AFTER - 1; i++) {
      assertThat(hints.plain("id")).as("file %d", i).isTrue();
    }

    assertThat(hints.plain("id")).isFalse();
    hints.record("id", DictionaryHints.MIN_VALUES, false /* fellBack */);

    assertThat(hints.plain("id")).isFalse();
    assertThat(hints.plain("id")).isFalse();
  }

  @Test
  void aSmallFileTeachesNothing() {
    hints.record("id", DictionaryHints.MIN_VALUES - 1, true /* fellBack */);

    assertThat(hints.plain("id")).isFalse();
  }

  @Test
  void noneRemembersNothing() {
    DictionaryHints none = DictionaryHints.none();
    none.record("id", DictionaryHints.MIN_VALUES, true /* fellBack */);

    assertThat(none.plain("id")).isFalse();
  }
}
