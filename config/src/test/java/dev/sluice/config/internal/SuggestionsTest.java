package dev.sluice.config.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {
  private static final List<String> MERGE_KEYS = List.of("keys", "sequence_by", "delete_when", "scd");

  @Test
  void findsTyposAndCamelCaseSpellings() {
    assertThat(Suggestions.closest("sequnce_by", MERGE_KEYS)).contains("sequence_by");
    assertThat(Suggestions.closest("sequenceBy", MERGE_KEYS)).contains("sequence_by");
    assertThat(Suggestions.closest("deleteWhen", MERGE_KEYS)).contains("delete_when");
    assertThat(Suggestions.closest("key", MERGE_KEYS)).contains("keys");
  }

  @Test
  void suggestsNothingForUnrelatedOrTinyWords() {
    assertThat(Suggestions.closest("colour", MERGE_KEYS)).isEmpty();
    assertThat(Suggestions.closest("3", List.of("1", "2"))).isEmpty();
  }

  @Test
  void distanceIsLevenshtein() {
    assertThat(Suggestions.distance("kitten", "sitting")).isEqualTo(3);
    assertThat(Suggestions.distance("", "abc")).isEqualTo(3);
    assertThat(Suggestions.distance("same", "same")).isZero();
  }
}
