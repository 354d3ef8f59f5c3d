package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.Row;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each join type over seeded random streams (disorder, late rows, re-sends) in random batches, one availableNow
 * run per batch (so each batch is also a restart): the table written equals a plain batch join of the rows that were
 * not late when their batch ran; state is evicted.
 */
class StreamStreamJoinOracleTest extends StreamStreamJoinHarness {
  @ParameterizedTest
  @CsvSource({"inner, 1", "left_outer, 2", "right_outer, 3", "full_outer, 4", "left_semi, 5"})
  void equalsABatchJoinOfTheRowsThatWereNotLate(String type, long seed) {
    Plan plan = generate(seed, 12);
    List<String> expected = oracle(plan, type);
    assertThat(expected).isNotEmpty();
    List<List<Row>> accepted = accepted(plan);
    long sent = plan.impressions().stream().mapToLong(List::size).sum();
    assertThat(accepted.get(0).size()).as("some impressions are late").isLessThan((int) sent);
    assertThat(run(plan, "j" + seed, type, "out", b -> { })).isEqualTo(expected);
  }

}
