package dev.sluice.silver;

import dev.sluice.ingestion.RowLedger;
import static dev.sluice.silver.SilverFixture.at;
import static dev.sluice.silver.SilverFixture.order;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.table.HistoryEntry;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deduplication, MERGE by key with sequence_by and delete_when, SCD 2 history and the change data feed. */
class SilverDedupMergeTest {
  @TempDir Path dir;
  private final SluiceSession session = SluiceSession.create();

  @AfterEach
  void close() {
    session.close();
  }

  private static List<QueryProgress> withInput(List<QueryProgress> progress) {
    return progress.stream().filter(p -> p.numInputRows() > 0).toList();
  }

  private static String idStatus(Map<String, Object> m) {
    return m.get("order_id") + "=" + m.get("status");
  }

  @Test
  void dedupWithoutWatermarkRemembersKeysAcrossBatches() {
    SilverFixture f = new SilverFixture(dir, session, "    dedup: {keys: [order_id, updated_at]}\n",
        "{keys: [order_id], sequence_by: updated_at}");
    f.bronze(order("o1", "1", "a", 0, 0), order("o1", "1", "dup", 0, 0), order("o2", "1", "a", 0, 0));
    f.run();
    f.bronze(order("o1", "1", "dup2", 0, 0), order("o1", "1", "b", 5, 5));
    f.run();

    assertThat(SilverFixture.rows(f.silver())).extracting(SilverDedupMergeTest::idStatus).containsExactly("o1=b", "o2=a");
    List<QueryProgress> p = withInput(f.progress());
    assertThat(p).hasSize(2);
    assertThat(p.get(0).observedMetrics()).containsEntry(RowLedger.DEDUPLICATED, 1L).containsEntry(RowLedger.WRITTEN, 2L);
    assertThat(p.get(1).observedMetrics()).containsEntry(RowLedger.DEDUPLICATED, 1L).containsEntry(RowLedger.WRITTEN, 1L)
        .containsEntry(RowLedger.LATE, 0L);
    p.forEach(x -> SilverFixture.assertBalanced(x.observedMetrics()));
  }

  @Test
  void dedupWithinWatermarkDropsLateRowsAndCountsThem() {
    SilverFixture f = new SilverFixture(dir, session,
        "    dedup: {keys: [order_id, updated_at], watermark: {column: event_time, delay: 10 minutes}}\n",
        "{keys: [order_id], sequence_by: updated_at}");
    f.bronze(order("o1", "1", "a", 0, 100), order("o2", "1", "a", 0, 100));
    f.run();
    // Watermark now 90 minutes: o3 is late, o1 a duplicate within the watermark, o4 new.
    f.bronze(order("o3", "1", "late", 0, 50), order("o1", "1", "dup", 0, 100), order("o4", "1", "a", 0, 95));
    f.run();

    assertThat(SilverFixture.rows(f.silver())).extracting(SilverDedupMergeTest::idStatus)
        .containsExactly("o1=a", "o2=a", "o4=a");
    QueryProgress second = withInput(f.progress()).get(1);
    assertThat(second.observedMetrics()).containsEntry(RowLedger.ROWS_IN, 3L).containsEntry(RowLedger.LATE, 1L)
        .containsEntry(RowLedger.DEDUPLICATED, 1L).containsEntry(RowLedger.WRITTEN, 1L);
    assertThat(second.stateOperators()).singleElement()
        .satisfies(op -> assertThat(op.numRowsDroppedByWatermark()).isEqualTo(1L));
    f.progress().forEach(x -> SilverFixture.assertBalanced(x.observedMetrics()));
  }

  @Test
  void sequenceByResolvesWithinABatchAndAnOlderVersionNeverOverwrites() {
    SilverFixture f = new SilverFixture(dir, session, "", "{keys: [order_id], sequence_by: updated_at}");
    f.bronze(order("o1", "1", "a", 1, 0), order("o1", "1", "c", 3, 0), order("o1", "1", "b", 2, 0),
        order("o2", "1", "x", 1, 0));
    f.run();
    assertThat(SilverFixture.rows(f.silver())).extracting(SilverDedupMergeTest::idStatus).containsExactly("o1=c", "o2=x");

    f.bronze(order("o1", "1", "older", 2, 0), order("o2", "1", "y", 5, 0));
    f.run();
    assertThat(SilverFixture.rows(f.silver())).extracting(m -> idStatus(m) + "@" + m.get("updated_at"))
        .containsExactly("o1=c@" + at(3), "o2=y@" + at(5));
    HistoryEntry second = f.mergeCommits().get(1);
    assertThat(second.operationMetrics()).containsEntry("numTargetRowsUpdated", "1")
        .containsEntry("numTargetRowsInserted", "0").containsEntry(RowLedger.WRITTEN, "1")
        .containsEntry(RowLedger.SUPERSEDED, "1");
  }

  @Test
  void withoutSequenceByTheLastRowOfABatchWins() {
    SilverFixture f = new SilverFixture(dir, session, "", "{keys: [order_id]}");
    f.bronze(order("o1", "1", "a", 5, 0), order("o1", "1", "b", 1, 0));
    f.run();
    f.bronze(order("o1", "1", "c", 0, 0));
    f.run();
    assertThat(SilverFixture.rows(f.silver())).extracting(SilverDedupMergeTest::idStatus).containsExactly("o1=c");
  }

  @Test
  void deleteWhenDeletesNewerMatchesAndNeverInserts() {
    SilverFixture f = new SilverFixture(dir, session, "",
        "{keys: [order_id], sequence_by: updated_at, delete_when: \"status = 'deleted'\"}");
    f.bronze(order("o1", "1", "a", 1, 0), order("o2", "1", "a", 1, 0), order("o3", "1", "a", 5, 0));
    f.run();
    f.bronze(order("o1", "1", "deleted", 2, 0),  // newer: deletes
        order("o3", "1", "deleted", 4, 0),       // older than the table's version: ignored
        order("o4", "1", "deleted", 1, 0),       // unmatched: not inserted
        order("o2", "1", "b", 2, 0), order("o2", "1", "deleted", 3, 0)); // the batch's latest is a delete
    f.run();

    assertThat(SilverFixture.rows(f.silver())).extracting(SilverDedupMergeTest::idStatus).containsExactly("o3=a");
    assertThat(f.mergeCommits().get(1).operationMetrics()).containsEntry("numTargetRowsDeleted", "2")
        .containsEntry("numTargetRowsInserted", "0");
  }

  @Test
  void changeDataFeedOfAnScd1Table() {
    SilverFixture f = new SilverFixture(dir, session, "",
        "{keys: [order_id], sequence_by: updated_at, delete_when: \"status = 'deleted'\"}");
    f.bronze(order("o1", "1", "a", 1, 0), order("o2", "1", "a", 1, 0));
    f.run();
    f.bronze(order("o1", "1", "b", 2, 0), order("o2", "1", "deleted", 2, 0), order("o3", "1", "a", 2, 0));
    f.run();

    assertThat(f.silver().latestSnapshot().properties()).containsEntry("delta.enableChangeDataFeed", "true");
    assertThat(changes(f, 1)).containsExactly(
        "1 insert o1=a", "1 insert o2=a",
        "2 delete o2=a", "2 insert o3=a", "2 update_postimage o1=b", "2 update_preimage o1=a");
  }

  /** The change feed from {@code start} as "version type id=status", sorted. */
  private static List<String> changes(SilverFixture f, long start) {
    var feed = f.silver().changes(start, f.silver().latestVersion().getAsLong());
    StructType schema = feed.schema();
    List<String> out = new ArrayList<>();
    try (CloseableIterator<Row> rows = feed.rows()) {
      rows.forEachRemaining(r -> {
        Map<String, Object> m = SilverFixture.asMap(schema, r);
        out.add(m.get("_commit_version") + " " + m.get("_change_type") + " " + idStatus(m)
            + (m.containsKey("__end_at") ? " " + m.get("__start_at") + ".." + m.get("__end_at") : ""));
      });
    }
    out.sort(null);
    return out;
  }

  @Test
  void scd2KeepsHistoryPlacesLateVersionsAndClosesOnDelete() {
    SilverFixture f = new SilverFixture(dir, session, "",
        "{keys: [order_id], sequence_by: updated_at, scd: 2, delete_when: \"status = 'deleted'\"}");
    f.bronze(order("o1", "1", "a", 1, 0), order("o2", "1", "a", 1, 0));
    f.run();
    f.bronze(order("o1", "1", "b", 3, 0), order("o1", "1", "c", 4, 0));
    f.run();
    f.bronze(order("o1", "1", "late", 2, 0), order("o1", "1", "a-again", 1, 0), order("o2", "1", "deleted", 5, 0));
    f.run();
    f.bronze(order("o2", "1", "back", 6, 0), order("o2", "1", "deleted", 4, 0));
    f.run();

    assertThat(SilverFixture.rows(f.silver())).extracting(m -> idStatus(m) + " " + m.get("__start_at") + ".."
        + m.get("__end_at") + " " + m.get("__is_current"))
        .containsExactlyInAnyOrder(
            "o1=a-again " + at(1) + ".." + at(2) + " false",
            "o1=late " + at(2) + ".." + at(3) + " false",
            "o1=b " + at(3) + ".." + at(4) + " false",
            "o1=c " + at(4) + "..null true",
            "o2=a " + at(1) + ".." + at(5) + " false",
            "o2=back " + at(6) + "..null true");
    assertThat(f.silver().latestSnapshot().schema().fieldNames()).endsWith("__start_at", "__end_at", "__is_current");
    // Batch 2 closed o1=a earlier (and, arriving later at the same sequence value, a-again replaced its values),
    // inserted the late version and closed o2 on its delete.
    long v = f.mergeCommits().get(2).version();
    assertThat(changes(f, v).stream().filter(c -> c.startsWith(v + " ")).toList()).containsExactly(
        v + " insert o1=late " + at(2) + ".." + at(3),
        v + " update_postimage o1=a-again " + at(1) + ".." + at(2),
        v + " update_postimage o2=a " + at(1) + ".." + at(5),
        v + " update_preimage o1=a " + at(1) + ".." + at(3),
        v + " update_preimage o2=a " + at(1) + "..null");
  }
}
