package dev.sluice.silver;

import dev.sluice.ingestion.RowLedger;
import static dev.sluice.silver.SilverFixture.order;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.SluiceSession;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CAST to a decimal in silver columns is the user's explicit choice and follows Spark: HALF_UP to the scale, NULL
 * when the integer digits don't fit the precision. Casting into a new column and an expectation on it keeps
 * such a value visible, with its original text, in the quarantine.
 */
class SilverDecimalCastTest {
  @TempDir Path dir;
  private final SluiceSession session = SluiceSession.create();

  @AfterEach
  void close() {
    session.close();
  }

  @Test
  void castRoundsHalfUpAndAnOverflowIsNullThatAnExpectationQuarantines() {
    SilverFixture f = new SilverFixture(dir, session, """
            columns: [{name: amount_dec, expr: "CAST(amount AS DECIMAL(4,2))"}]
            expectations: [{name: amount_fits, condition: "amount_dec IS NOT NULL", action: quarantine}]
        """, "{keys: [order_id]}");
    f.bronze(order("o1", "12.345", "a", 0, 0), order("o2", "12.344", "a", 0, 0), order("o3", "123.4", "a", 0, 0));
    f.run();

    assertThat(SilverFixture.rows(f.silver())).extracting(m -> m.get("order_id") + "=" + m.get("amount_dec"))
        .containsExactly("o1=12.35", "o2=12.34");
    assertThat(SilverFixture.rows(f.quarantine())).singleElement().satisfies(m -> assertThat(m)
        .containsEntry("order_id", "o3").containsEntry("amount", "123.4").containsEntry("amount_dec", null)
        .containsEntry(QuarantineRows.FAILED, "amount_fits"));
    assertThat(SilverFixture.rows(f.silver()).get(0).get("amount_dec")).isEqualTo(new BigDecimal("12.35"));
    Map<String, Long> ledger = f.progress().get(0).observedMetrics();
    assertThat(ledger).containsEntry(RowLedger.QUARANTINED, 1L).containsEntry(RowLedger.WRITTEN, 2L);
  }
}
