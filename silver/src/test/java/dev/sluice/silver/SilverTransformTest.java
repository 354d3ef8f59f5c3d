package dev.sluice.silver;

import dev.sluice.ingestion.RowLedger;
import static dev.sluice.silver.SilverFixture.at;
import static dev.sluice.silver.SilverFixture.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQueryException;
import dev.sluice.table.HistoryEntry;
import dev.sluice.table.types.PrimitiveType;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Columns, filter and expectations of a silver pipeline, with their counters. */
class SilverTransformTest {
  @TempDir Path dir;
  private final SluiceSession session = SluiceSession.create();

  @AfterEach
  void close() {
    session.close();
  }

  private SilverFixture fixture(String transforms) {
    return new SilverFixture(dir, session, transforms, "{keys: [order_id], sequence_by: updated_at}");
  }

  @Test
  void derivedAndCastColumnsThenFilter() {
    SilverFixture f = fixture("""
            columns:
              - {name: amount, expr: "CAST(amount AS DOUBLE)"}
              - {name: day, expr: "to_date(event_time)"}
              - {name: big, expr: "CAST(amount AS DOUBLE) > 100"}
            filter: "status <> 'test'"
        """);
    f.bronze(order("o1", "12.5", "new", 0, 0), order("o2", "250", "new", 0, 1), order("o3", "1", "test", 0, 2));
    f.run();

    assertThat(f.silver().latestSnapshot().schema().field("amount").orElseThrow().type()).isEqualTo(PrimitiveType.DOUBLE);
    assertThat(f.silver().latestSnapshot().schema().fieldNames())
        .containsExactly("order_id", "amount", "status", "updated_at", "event_time", "_batch_id", "day", "big");
    assertThat(SilverFixture.rows(f.silver())).extracting(m -> m.get("order_id") + " " + m.get("amount") + " "
        + m.get("day") + " " + m.get("big"))
        .containsExactly("o1 12.5 2026-03-01 false", "o2 250.0 2026-03-01 true");
    assertThat(SilverFixture.rows(f.silver()).get(0).get("day")).isEqualTo(LocalDate.of(2026, 3, 1));
    Map<String, Long> observed = f.progress().get(0).observedMetrics();
    assertThat(observed).containsEntry(RowLedger.ROWS_IN, 3L).containsEntry(RowLedger.FILTERED, 1L)
        .containsEntry(RowLedger.WRITTEN, 2L);
  }

  @Test
  void eachExpectationActionAndSeveralRulesOnOneRow() {
    SilverFixture f = fixture("""
            columns: [{name: amount, expr: "CAST(amount AS DOUBLE)"}]
            expectations:
              - {name: small_amount, condition: "amount < 1000", action: warn}
              - {name: has_status, condition: "status IS NOT NULL", action: drop}
              - {name: positive_amount, condition: "amount > 0", action: quarantine}
              - {name: valid_id, condition: "order_id LIKE 'o%'", action: quarantine}
        """);
    f.bronze(
        order("o1", "10", "new", 0, 0),      // passes
        order("o2", "5000", "new", 0, 0),    // warn only: kept
        order("o3", "10", null, 0, 0),       // drop
        order("o4", "-1", "new", 0, 0),      // quarantine
        order("x5", "-2", null, 0, 0),       // drop + two quarantines: quarantine wins, both names recorded
        order("o6", null, "new", 0, 0),      // amount NULL: "amount > 0" and "amount < 1000" are unknown = broken
        order("x7", "9999", null, 0, 0));    // warn + drop + quarantine(valid_id)
    f.run();

    assertThat(SilverFixture.rows(f.silver())).extracting(m -> m.get("order_id")).containsExactly("o1", "o2");
    List<Map<String, Object>> q = SilverFixture.rows(f.quarantine());
    assertThat(q).extracting(m -> m.get("order_id") + ":" + m.get("_failed_expectations") + ":" + m.get("_batch_id"))
        .containsExactly("o4:positive_amount:0", "o6:small_amount,positive_amount:0",
            "x5:has_status,positive_amount,valid_id:0", "x7:small_amount,has_status,valid_id:0");
    assertThat(f.quarantine().latestSnapshot().schema().fieldNames()).containsExactly("order_id", "amount", "status",
        "updated_at", "event_time", "_batch_id", "_failed_expectations");

    Map<String, Long> expected = Map.of("expectation.small_amount.failed", 3L, "expectation.has_status.failed", 3L,
        "expectation.positive_amount.failed", 3L, "expectation.valid_id.failed", 2L, RowLedger.DROPPED, 1L,
        RowLedger.QUARANTINED, 4L, RowLedger.WRITTEN, 2L, RowLedger.ROWS_IN, 7L);
    QueryProgress p = f.progress().get(0);
    assertThat(p.observedMetrics()).containsAllEntriesOf(expected);
    HistoryEntry commit = f.mergeCommits().get(0);
    assertThat(SilverFixture.longs(commit.operationMetrics())).containsAllEntriesOf(expected);
    SilverFixture.assertBalanced(p.observedMetrics());
  }

  @Test
  void failActionFailsTheBatchNamingTheRuleAndASampleRow() {
    SilverFixture f = fixture("""
            expectations:
              - {name: has_status, condition: "status IS NOT NULL", action: quarantine}
              - {name: known_status, condition: "status IN ('new', 'paid')", action: fail}
        """);
    f.bronze(order("o1", "10", "new", 0, 0), order("o2", "10", "bogus", 0, 0), order("o3", "10", "weird", 0, 0));

    assertThatThrownBy(f::run).isInstanceOf(StreamingQueryException.class)
        .hasRootCauseInstanceOf(ExpectationFailedException.class)
        .rootCause().hasMessageContaining("expectation 'known_status' (status IN ('new', 'paid')) with action fail was"
            + " broken by 2 of 3 rows in batch 0")
        .hasMessageContaining("sample row: {order_id=o2, amount=10, status=bogus, updated_at=" + at(0));
    assertThat(f.silver().latestVersion().getAsLong()).isZero();
    assertThat(f.quarantine().exists()).isFalse();
  }

  @Test
  void nullStatusBreaksFailRuleToo() {
    SilverFixture f = fixture("""
            expectations: [{name: known_status, condition: "status IN ('new')", action: fail}]
        """);
    f.bronze(order("o1", "10", null, 0, 0));

    assertThatThrownBy(f::run).isInstanceOf(StreamingQueryException.class)
        .rootCause().isInstanceOf(ExpectationFailedException.class).hasMessageContaining("'known_status'")
        .hasMessageContaining("order_id=o1");
  }

  @Test
  void notNullRulesAloneAreAnsweredForEveryRowAndAction() {
    SilverFixture f = fixture("""
            expectations:
              - {name: has_id, condition: "order_id IS NOT NULL", action: quarantine}
              - {name: has_status, condition: "status is not null", action: drop}
              - {name: has_amount, condition: "amount IS NOT NULL", action: warn}
        """);
    f.bronze(
        order("o1", "10", "new", 0, 0),      // passes
        order(null, "5", "new", 0, 1),       // quarantine
        order("o3", "10", null, 0, 0),       // drop
        order(null, null, null, 0, 2),       // all three: quarantine wins
        order("o5", null, "new", 0, 0));     // warn only: kept
    f.run();

    assertThat(SilverFixture.rows(f.silver())).extracting(m -> m.get("order_id")).containsExactly("o1", "o5");
    assertThat(SilverFixture.rows(f.quarantine())).extracting(m -> m.get("event_time") + ":"
        + m.get("_failed_expectations")).containsExactly(at(1) + ":has_id", at(2) + ":has_id,has_status,has_amount");
    assertThat(f.progress().get(0).observedMetrics()).containsEntry("expectation.has_id.failed", 2L)
        .containsEntry("expectation.has_status.failed", 2L).containsEntry("expectation.has_amount.failed", 2L)
        .containsEntry(RowLedger.DROPPED, 1L).containsEntry(RowLedger.QUARANTINED, 2L);
  }
}
