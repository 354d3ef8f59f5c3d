package dev.sluice.silver;

import static dev.sluice.silver.SilverFixture.at;
import static dev.sluice.silver.SilverFixture.order;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.RowLedger;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.table.HistoryEntry;
import dev.sluice.table.data.Row;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CDC apply: delete tombstones across runs, the one tie-break rule, what the ledger says the MERGE did, null keys. */
class SilverCdcApplyTest {
  private static final String DELETES = "delete_when: \"status = 'deleted'\"";
  private static final String SCD1 = "{keys: [order_id], sequence_by: updated_at, " + DELETES + "}";
  private static final String SCD2 = "{keys: [order_id], sequence_by: updated_at, scd: 2, " + DELETES + "}";

  @TempDir Path dir;
  private final SluiceSession session = SluiceSession.create();

  @AfterEach
  void close() {
    session.close();
  }

  private static String idStatus(Map<String, Object> m) {
    return m.get("order_id") + "=" + m.get("status");
  }

  private static String version(Map<String, Object> m) {
    return idStatus(m) + " " + m.get("__start_at") + ".." + m.get("__end_at") + " " + m.get("__is_current");
  }

  private static Map<String, Long> lastLedger(SilverFixture f) {
    List<QueryProgress> p = f.progress().stream().filter(x -> x.numInputRows() > 0).toList();
    return p.get(p.size() - 1).observedMetrics();
  }

  @Test
  void scd1DeleteThenAnOlderUpdateInALaterRunStaysDeleted() {
    SilverFixture f = new SilverFixture(dir, session, "", SCD1);
    f.bronze(order("A", "1", "new", 1, 0), order("B", "1", "new", 1, 0));
    f.run();
    f.bronze(order("B", "1", "deleted", 4, 0));
    f.run();
    f.bronze(order("B", "1", "paid", 2, 0));
    f.run();

    assertThat(SilverFixture.rows(f.silver())).extracting(SilverCdcApplyTest::idStatus).containsExactly("A=new");
    assertThat(lastLedger(f)).containsEntry(RowLedger.SUPERSEDED, 1L).containsEntry(RowLedger.WRITTEN, 0L);
  }

  @Test
  void scd2DeleteOfAnUnseenKeyThenAnOlderUpdateInALaterRunLeavesNoOpenRow() {
    SilverFixture f = new SilverFixture(dir, session, "", SCD2);
    f.bronze(order("B", "1", "deleted", 4, 0));
    f.run();
    f.bronze(order("B", "1", "paid", 2, 0));
    f.run();

    assertThat(SilverFixture.rows(f.silver())).extracting(SilverCdcApplyTest::version)
        .containsExactly("B=paid " + at(2) + ".." + at(4) + " false");
  }

  @Test
  void aDeleteAndAnOlderUpdateInOneBatchLeaveNoCurrentRowInEitherScd() {
    SilverFixture scd1 = new SilverFixture(dir.resolve("scd1"), session, "", SCD1);
    SilverFixture scd2 = new SilverFixture(dir.resolve("scd2"), session, "", SCD2);
    for (SilverFixture f : List.of(scd1, scd2)) {
      f.bronze(order("B", "1", "deleted", 4, 0), order("B", "1", "paid", 2, 0));
      f.run();
    }

    assertThat(SilverFixture.rows(scd1.silver())).isEmpty();
    assertThat(SilverFixture.rows(scd2.silver())).extracting(SilverCdcApplyTest::version)
        .containsExactly("B=paid " + at(2) + ".." + at(4) + " false");
  }

  @Test
  void aTombstoneIsForgottenAfterItsRetention() throws InterruptedException {
    SilverFixture f = new SilverFixture(dir, session, "",
        "{keys: [order_id], sequence_by: updated_at, tombstone_retention: 1 ms, " + DELETES + "}");
    f.bronze(order("B", "1", "new", 1, 0));
    f.run();
    f.bronze(order("B", "1", "deleted", 4, 0));
    f.run();
    Thread.sleep(20);
    f.bronze(order("B", "1", "paid", 2, 0));
    f.run();

    assertThat(SilverFixture.rows(f.silver())).extracting(SilverCdcApplyTest::idStatus).containsExactly("B=paid");
  }

  @Test
  void aTieOnSequenceByHasTheSameWinnerInScd1AndScd2() {
    SilverFixture scd1 = new SilverFixture(dir.resolve("scd1"), session, "", SCD1);
    SilverFixture scd2 = new SilverFixture(dir.resolve("scd2"), session, "", SCD2);
    for (SilverFixture f : List.of(scd1, scd2)) {
      // o1: the last to arrive wins; o2: a delete wins its tie, whatever the order.
      f.bronze(order("o1", "1", "first", 2, 0), order("o1", "1", "last", 2, 0),
          order("o2", "1", "before", 2, 0), order("o2", "1", "deleted", 2, 0), order("o2", "1", "after", 2, 0));
      f.run();
      // A later batch at the same sequence value wins over the table's version.
      f.bronze(order("o3", "1", "old", 2, 0));
      f.run();
      f.bronze(order("o3", "1", "new", 2, 0));
      f.run();
    }

    assertThat(SilverFixture.rows(scd1.silver())).extracting(SilverCdcApplyTest::idStatus)
        .containsExactly("o1=last", "o3=new");
    assertThat(SilverFixture.rows(scd2.silver())).extracting(SilverCdcApplyTest::idStatus)
        .containsExactly("o1=last", "o3=new");
  }

  @Test
  void aLaterRowWithTheTableRowsSequenceButOtherValuesOverwritesIt() {
    SilverFixture f = new SilverFixture(dir, session, "", SCD1);
    f.bronze(order("o1", "1", "new", 1, 0), order("o2", "1", "new", 1, 0));
    f.run();
    f.bronze(order("o1", "2", "new", 1, 0), order("o2", "1", "new", 1, 0));
    f.run();

    assertThat(lastLedger(f)).containsEntry(RowLedger.WRITTEN, 1L).containsEntry(RowLedger.UNCHANGED, 1L);
    assertThat(SilverFixture.rows(f.silver())).extracting(m -> m.get("order_id") + "=" + m.get("amount"))
        .containsExactly("o1=2", "o2=1");
  }

  /**
   * An update, a delete and a tie on the sequence land as whole rows whether they are a few among many new keys (read
   * by position) or most of the batch (read in one pass).
   */
  @Test
  void fewOrManyMatchesAmongInsertsLandTheSameWholeRows() {
    for (int inserts : new int[] {200, 0}) {
      SilverFixture f = new SilverFixture(dir.resolve("inserts-" + inserts), session, "", SCD1);
      f.bronze(order("u", "1", "new", 1, 0), order("d", "1", "new", 1, 0), order("t", "1", "new", 1, 0),
          order("same", "1", "new", 1, 0));
      f.run();
      List<Row> next = new java.util.ArrayList<>();
      for (int i = 0; i < inserts / 2; i++) {
        next.add(order("n" + i, "3", "new", 2, 0));
      }
      next.add(order("u", "5", "paid", 3, 0));      // newer: an update
      next.add(order("d", "1", "deleted", 3, 0));   // newer and a delete
      next.add(order("t", "9", "new", 1, 0));       // the table's sequence, other values: a tie that overwrites
      next.add(order("same", "1", "new", 1, 0));    // exactly the table's row: unchanged
      for (int i = inserts / 2; i < inserts; i++) {
        next.add(order("n" + i, "3", "new", 2, 0));
      }
      f.bronze(next.toArray(Row[]::new));
      f.run();

      Map<String, Long> ledger = lastLedger(f);
      assertThat(ledger).as("%d inserts", inserts).containsEntry(RowLedger.WRITTEN, 3L + inserts)
          .containsEntry(RowLedger.UNCHANGED, 1L);
      List<String> rows = SilverFixture.rows(f.silver()).stream()
          .filter(m -> !((String) m.get("order_id")).startsWith("n"))
          .map(m -> m.get("order_id") + "=" + m.get("status") + "/" + m.get("amount")).toList();
      assertThat(rows).as("%d inserts", inserts).containsExactly("same=new/1", "t=new/9", "u=paid/5");
      assertThat(SilverFixture.rows(f.silver())).hasSize(3 + inserts);
    }
  }

  @Test
  void theLedgerCountsWhatLandedAndNamesTheRest() {
    SilverFixture f = new SilverFixture(dir, session, "", SCD1);
    f.bronze(order("o1", "1", "new", 1, 0));
    f.run();
    f.bronze(order("o1", "1", "new", 1, 0),   // exactly the table's row: unchanged
        order("o2", "1", "new", 1, 0), order("o2", "1", "new", 1, 0), // an exact duplicate: one is superseded
        order("o3", "1", "new", 1, 0),
        order("o1", "1", "older", 0, 0),      // older than the table's: superseded
        order("o4", "1", "deleted", 1, 0));   // a delete of a key the table lacks: unchanged
    f.run();

    Map<String, Long> ledger = lastLedger(f);
    assertThat(ledger).containsEntry(RowLedger.ROWS_IN, 6L).containsEntry(RowLedger.WRITTEN, 2L)
        .containsEntry(RowLedger.SUPERSEDED, 2L).containsEntry(RowLedger.UNCHANGED, 2L);
    SilverFixture.assertBalanced(ledger);
    HistoryEntry commit = f.mergeCommits().get(1);
    Map<String, String> m = commit.operationMetrics();
    assertThat(Long.parseLong(m.get("numTargetRowsInserted")) + Long.parseLong(m.get("numTargetRowsUpdated"))
        + Long.parseLong(m.get("numTargetRowsDeleted"))).isEqualTo(2L);
    assertThat(SilverFixture.longs(m)).containsAllEntriesOf(SilverFixture.longs(Map.of(
        RowLedger.WRITTEN, "2", RowLedger.SUPERSEDED, "2", RowLedger.UNCHANGED, "2")));
    assertThat(SilverFixture.rows(f.silver())).extracting(SilverCdcApplyTest::idStatus)
        .containsExactly("o1=new", "o2=new", "o3=new");
  }

  @Test
  void rowsWithANullMergeKeyOrSequenceAreQuarantinedWithTheColumnNamed() {
    SilverFixture f = new SilverFixture(dir, session, "", SCD1);
    Row nullKey = order(null, "1", "new", 1, 0);
    Row nullSequence = Row.of("o2", "1", "new", null, at(0), 7L);
    f.bronze(nullKey, order(null, "1", "new", 2, 0), nullSequence, order("o1", "1", "new", 1, 0));
    f.run();

    assertThat(SilverFixture.rows(f.silver())).extracting(SilverCdcApplyTest::idStatus).containsExactly("o1=new");
    assertThat(SilverFixture.rows(f.quarantine())).extracting(m -> m.get("order_id") + ": "
        + m.get(QuarantineRows.FAILED)).containsExactly("null: null merge key: order_id",
            "null: null merge key: order_id", "o2: null sequence_by: updated_at");
    assertThat(lastLedger(f)).containsEntry(RowLedger.QUARANTINED, 3L).containsEntry(RowLedger.WRITTEN, 1L);
    SilverFixture.assertBalanced(lastLedger(f));
  }
}
