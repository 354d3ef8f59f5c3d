package dev.sluice.silver;

import dev.sluice.ingestion.RowLedger;
import static dev.sluice.silver.SilverFixture.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.MergeConfig;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQueryException;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import dev.sluice.table.CommitResult;
import dev.sluice.table.HistoryEntry;
import dev.sluice.table.Table;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The row ledger of every batch, idempotent re-runs, and a crash in the middle of a batch followed by a restart. */
class SilverRecoveryTest {
  private static final String TRANSFORMS = """
          columns: [{name: amount, expr: "CAST(amount AS DOUBLE)"}]
          filter: "status <> 'test'"
          expectations:
            - {name: positive_amount, condition: "amount > 0", action: quarantine}
            - {name: has_amount, condition: "amount IS NOT NULL", action: drop}
          dedup: {keys: [order_id, updated_at], watermark: {column: event_time, delay: 10 minutes}}
      """;
  private static final String MERGE =
      "{keys: [order_id], sequence_by: updated_at, delete_when: \"status = 'deleted'\"}";

  @TempDir Path dir;
  private final SluiceSession session = SluiceSession.create();

  @AfterEach
  void close() {
    BatchInterceptor.REGISTRY.clear();
    session.close();
  }

  /** Three bronze commits with every kind of row, read one commit per batch. */
  private SilverFixture scenario(Path warehouse) {
    SilverFixture f = new SilverFixture(warehouse, session, TRANSFORMS, MERGE);
    f.sourceOptions = ", options: {maxFilesPerTrigger: \"1\"}";
    f.bronze(order("o1", "10", "new", 1, 100), order("o2", "20", "new", 1, 100), order("o3", "-5", "new", 1, 100),
        order("o4", "1", "test", 1, 100), order("o1", "10", "new", 1, 100));
    f.bronze(order("o1", "11", "paid", 3, 101), order("o2", "20", "new", 1, 100), order("o5", "7", "new", 1, 50),
        order("o6", null, "new", 1, 101), order("o2", "20", "deleted", 4, 102), order("o7", "-1", "new", 2, 99));
    f.bronze(order("o1", "9", "old", 2, 103), order("o8", "3", "new", 1, 104));
    return f;
  }

  @Test
  void ledgerBalancesInEveryBatchInProgressAndCommits() {
    SilverFixture f = scenario(dir);
    f.run();

    List<QueryProgress> batches = f.progress().stream().filter(p -> p.numInputRows() > 0).toList();
    assertThat(batches).hasSize(3);
    batches.forEach(p -> SilverFixture.assertBalanced(p.observedMetrics()));
    List<HistoryEntry> commits = f.mergeCommits();
    assertThat(commits).hasSize(3);
    commits.forEach(c -> SilverFixture.assertBalanced(SilverFixture.longs(c.operationMetrics())));
    assertThat(SilverFixture.longs(commits.get(0).operationMetrics())).containsEntry(RowLedger.ROWS_IN, 5L)
        .containsEntry(RowLedger.FILTERED, 1L).containsEntry(RowLedger.QUARANTINED, 1L).containsEntry(RowLedger.DEDUPLICATED, 1L)
        .containsEntry(RowLedger.WRITTEN, 2L);
    assertThat(SilverFixture.longs(commits.get(1).operationMetrics())).containsEntry(RowLedger.ROWS_IN, 6L)
        // o6 (amount NULL) breaks has_amount (drop) and positive_amount (NULL is broken: quarantine wins).
        .containsEntry(RowLedger.LATE, 1L).containsEntry(RowLedger.DROPPED, 0L).containsEntry(RowLedger.QUARANTINED, 2L)
        .containsEntry(RowLedger.DEDUPLICATED, 1L).containsEntry(RowLedger.WRITTEN, 2L)
        .containsEntry("expectation.positive_amount.failed", 2L).containsEntry("expectation.has_amount.failed", 1L);
    assertThat(SilverFixture.rows(f.silver())).extracting(m -> m.get("order_id") + "=" + m.get("status"))
        .containsExactly("o1=paid", "o8=new");
    assertThat(SilverFixture.rows(f.quarantine())).extracting(m -> m.get("order_id") + ":" + m.get("_batch_id"))
        .containsExactly("o3:0", "o6:1", "o7:1");
  }

  @Test
  void aResetCheckpointReDerivesSilverAndItsQuarantineWithoutDoublingAnyRow() throws java.io.IOException {
    SilverFixture reference = scenario(dir.resolve("reference"));
    reference.bronze(order("o9", "4", "new", 5, 105), order("o10", "-3", "new", 5, 105));
    reference.run();

    SilverFixture f = scenario(dir.resolve("reset"));
    f.run();
    Path checkpoint = dir.resolve("reset/silver/orders/_checkpoints/orders_silver");
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(checkpoint)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    f.bronze(order("o9", "4", "new", 5, 105), order("o10", "-3", "new", 5, 105));
    f.run();

    assertThat(SilverFixture.rows(f.silver())).isEqualTo(SilverFixture.rows(reference.silver()));
    assertThat(SilverFixture.rows(f.quarantine())).extracting(m -> m.get("order_id") + ":" + m.get("_batch_id"))
        .containsExactlyInAnyOrder("o3:0", "o6:1", "o7:1", "o10:3");
  }

  @Test
  void aReRunOfACommittedBatchDoesNothing() {
    SilverFixture f = new SilverFixture(dir, session, "", MERGE);
    f.bronze(order("o1", "10", "new", 1, 0));
    String appId = f.run().id().toString();
    Table silver = f.silver();
    long version = silver.latestVersion().getAsLong();
    MergeConfig config = f.config().pipeline("orders_silver").orElseThrow().sink().merge().orElseThrow();
    Tombstones tombstones = new Tombstones(f.session.table(silver.uri() + "/" + Tombstones.FOLDER), config);
    Scd1Merge merge = new Scd1Merge(silver, config, tombstones);
    Batch batch = new Batch(silver.latestSnapshot().schema(), List.of(order("o1", "99", "changed", 9, 0)));

    CommitResult again = merge.merge(batch, appId, 0, EvalContext.of(SilverFixture.T0), new HashMap<>());

    assertThat(again.skipped()).isTrue();
    assertThat(silver.latestVersion().getAsLong()).isEqualTo(version);
    assertThat(SilverFixture.rows(silver)).extracting(m -> m.get("status")).containsExactly("new");
    CommitResult next = merge.merge(batch, appId, 1, EvalContext.of(SilverFixture.T0), new HashMap<>());
    assertThat(next.skipped()).isFalse();
  }

  @Test
  void aRunWithNoNewInputCommitsNothing() {
    SilverFixture f = scenario(dir);
    f.run();
    long version = f.silver().latestVersion().getAsLong();
    f.run();
    assertThat(f.silver().latestVersion().getAsLong()).isEqualTo(version);
  }

  @ParameterizedTest
  @EnumSource(BatchInterceptor.Step.class)
  void crashInTheMiddleOfABatchThenRestartGivesTheSameTables(BatchInterceptor.Step crashAt) {
    SilverFixture reference = scenario(dir.resolve("reference"));
    reference.run();

    SilverFixture f = scenario(dir.resolve("crashed"));
    AtomicBoolean crashed = new AtomicBoolean();
    BatchInterceptor.REGISTRY.put("orders_silver", (step, batchId) -> {
      if (step == crashAt && batchId == 1 && crashed.compareAndSet(false, true)) {
        throw new IllegalStateException("injected crash at " + step + " of batch " + batchId);
      }
    });
    assertThatThrownBy(f::run).isInstanceOf(StreamingQueryException.class)
        .hasMessageContaining("injected crash at " + crashAt);
    f.run();

    assertThat(SilverFixture.rows(f.silver())).isEqualTo(SilverFixture.rows(reference.silver()));
    assertThat(SilverFixture.rows(f.quarantine())).isEqualTo(SilverFixture.rows(reference.quarantine()));
    assertThat(f.mergeCommits()).extracting(c -> SilverFixture.longs(c.operationMetrics()))
        .isEqualTo(reference.mergeCommits().stream().map(c -> SilverFixture.longs(c.operationMetrics())).toList());
    assertThat(f.quarantine().latestVersion()).isEqualTo(reference.quarantine().latestVersion());
    assertThat(Optional.of(f.silver().latestVersion().getAsLong()))
        .contains(reference.silver().latestVersion().getAsLong());
  }
}
