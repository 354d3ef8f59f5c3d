package dev.sluice.table.internal.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.actions.CommitInfo;
import dev.sluice.table.internal.actions.Protocol;
import dev.sluice.table.internal.actions.SetTransaction;
import dev.sluice.table.internal.replay.LogReplay;
import dev.sluice.table.internal.replay.SnapshotState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaLogTest {
  @TempDir
  Path tmp;

  /** 25 commits: each adds a file, every third removes the previous one, every fifth records a txn. */
  private TestLog twentyFiveCommits(boolean checkpoint) {
    TestLog t = new TestLog(tmp).create(TestLog.add("f0"));
    long now = System.currentTimeMillis();
    for (long v = 1; v <= 24; v++) {
      List<dev.sluice.table.internal.actions.Action> actions = new java.util.ArrayList<>();
      actions.add(TestLog.info("WRITE"));
      actions.add(TestLog.add("f" + v));
      if (v % 3 == 0) {
        actions.add(TestLog.add("f" + (v - 1)).toRemove(now, true));
      }
      if (v % 5 == 0) {
        actions.add(new SetTransaction("stream-" + (v % 2), v, now));
      }
      if (v == 15) {
        actions.add(TestLog.metadata(Map.of("delta.appendOnly", "false")));
      }
      t.commit(v, actions.toArray(dev.sluice.table.internal.actions.Action[]::new));
      if (checkpoint && (v == 10 || v == 20)) {
        t.log.checkpoint(t.log.snapshot());
      }
    }
    return t;
  }

  private static SnapshotState fullReplay(TestLog t) {
    LogSegment latest = LogSegments.build(t.store, t.log.logPath(), OptionalLong.empty());
    List<dev.sluice.table.storage.ObjectStatus> all = new java.util.ArrayList<>();
    for (long v = 0; v <= latest.version(); v++) {
      all.add(t.store.status(FileNames.deltaFile(t.log.logPath(), v)).orElseThrow());
    }
    return LogReplay.replay(t.store, "tables/t",
        new LogSegment(t.log.logPath(), latest.version(), List.of(), all, latest.lastCommitTimestamp()));
  }

  private static void assertSameState(SnapshotState actual, SnapshotState expected) {
    assertThat(actual.version()).isEqualTo(expected.version());
    assertThat(actual.protocol()).isEqualTo(expected.protocol());
    assertThat(actual.metadata()).isEqualTo(expected.metadata());
    assertThat(actual.transactions()).isEqualTo(expected.transactions());
    assertThat(actual.tombstones().keySet()).containsExactlyInAnyOrderElementsOf(expected.tombstones().keySet());
    assertThat(actual.activeFiles().keySet()).containsExactlyInAnyOrderElementsOf(expected.activeFiles().keySet());
    // checkpoints store adds with dataChange=false; everything else must survive the round trip
    actual.activeFiles().forEach((k, v) -> assertThat(v.withDataChange(true)).isEqualTo(expected.activeFiles().get(k)));
  }

  @Test
  void checkpointRoundTripMatchesFullReplay() {
    TestLog t = twentyFiveCommits(true);

    SnapshotState fromCheckpoint = t.log.snapshot();
    SnapshotState at15 = t.log.snapshotAt(15);

    assertThat(fromCheckpoint.segment().checkpointVersion()).isEqualTo(OptionalLong.of(20));
    assertThat(fromCheckpoint.segment().deltas()).hasSize(4);
    assertThat(at15.segment().checkpointVersion()).isEqualTo(OptionalLong.of(10));
    assertSameState(fromCheckpoint, fullReplay(t));
    assertThat(fromCheckpoint.activeFiles()).hasSize(25 - 8);
    assertThat(fromCheckpoint.tombstones()).hasSize(8);
    assertThat(fromCheckpoint.transactionVersion("stream-0")).isEqualTo(OptionalLong.of(20));
    assertThat(fromCheckpoint.transactionVersion("stream-1")).isEqualTo(OptionalLong.of(15));
    assertThat(fromCheckpoint.metadata().configuration()).containsEntry("delta.appendOnly", "false");
    assertThat(at15.activeFiles()).hasSize(16 - 5);
  }

  @Test
  void lastCheckpointHasNoPartsField() {
    TestLog t = twentyFiveCommits(true);

    String hint = new String(t.store.read(FileNames.lastCheckpointFile(t.log.logPath())), StandardCharsets.UTF_8);
    long size = t.store.status(FileNames.checkpointFile(t.log.logPath(), 20)).orElseThrow().size();

    // version 20: protocol, metadata, 2 txns, 15 live files, 6 tombstones
    assertThat(hint).isEqualTo("{\"version\":20,\"size\":25,\"sizeInBytes\":" + size + ",\"numOfAddFiles\":15}");
  }

  @Test
  void updateAppliesOnlyNewCommits() {
    TestLog t = twentyFiveCommits(true);
    SnapshotState base = t.log.snapshotAt(22);

    assertThat(t.log.update(t.log.snapshot())).isNotNull();
    SnapshotState latest = t.log.snapshot();
    assertThat(t.log.update(latest)).isSameAs(latest);

    SnapshotState updated = t.log.update(base);
    assertSameState(updated, fullReplay(t));
    assertThat(updated.version()).isEqualTo(24);

    t.commit(25, TestLog.info("DELETE"), TestLog.add("f24").toRemove(System.currentTimeMillis(), true),
        TestLog.add("f0"));
    assertSameState(t.log.update(updated), fullReplay(t));
  }

  @Test
  void expiredTombstonesAreDroppedButStillHideOlderAdds() {
    TestLog t = new TestLog(tmp).create(TestLog.add("old"), TestLog.add("recent"));
    long now = System.currentTimeMillis();
    t.commit(1, TestLog.add("old").toRemove(now - 8L * 24 * 3600 * 1000, true),
        TestLog.add("recent").toRemove(now - 3600 * 1000, true));

    SnapshotState state = t.log.snapshot();

    assertThat(state.activeFiles()).isEmpty();
    assertThat(state.tombstones().values()).extracting(r -> r.path()).containsExactly("day=1/recent.parquet");
  }

  @Test
  void tombstoneRetentionFollowsTheTableProperty() {
    TestLog t = new TestLog(tmp).create(TestLog.add("a"));
    t.commit(1, TestLog.metadata(Map.of("delta.deletedFileRetentionDuration", "interval 1 hour")),
        TestLog.add("a").toRemove(System.currentTimeMillis() - 2 * 3600 * 1000, true));

    assertThat(t.log.snapshot().tombstones()).isEmpty();
  }

  @Test
  void timeTravelByTimestampUsesMonotonisedTimes() {
    TestLog t = new TestLog(tmp).create(TestLog.add("a"));
    t.commit(1, TestLog.add("b")).commit(2, TestLog.add("c"));
    t.mtime(0, 10_000).mtime(1, 9_000).mtime(2, 20_000);

    assertThat(t.log.snapshotAsOf(10_000).version()).isEqualTo(0);
    assertThat(t.log.snapshotAsOf(10_001).version()).isEqualTo(1);
    assertThat(t.log.snapshotAsOf(19_999).version()).isEqualTo(1);
    assertThat(t.log.snapshotAsOf(20_000).version()).isEqualTo(2);
    assertThat(t.log.commitTimestamp(1)).isEqualTo(10_001);
  }

  @Test
  void commitTimelineListsMonotonisedTimesFromTheEarliestCommit() {
    TestLog t = new TestLog(tmp).create(TestLog.add("a"));
    t.commit(1, TestLog.add("b")).commit(2, TestLog.add("c"));
    t.mtime(0, 10_000).mtime(1, 9_000).mtime(2, 20_000);

    assertThat(t.log.commitTimeline()).containsExactly(
        Map.entry(0L, 10_000L), Map.entry(1L, 10_001L), Map.entry(2L, 20_000L));
  }

  @Test
  void inCommitTimestampWinsOverFileTime() {
    Map<String, Object> extra = Map.of("inCommitTimestamp", 1_700_000_000_000L);
    CommitInfo ict = new CommitInfo(1L, "WRITE", null, null, null, true, null, null, null, null, extra);
    TestLog t = new TestLog(tmp).create(TestLog.add("a"));
    t.commit(1, ict, TestLog.add("b"));

    assertThat(t.log.snapshot().timestamp()).isEqualTo(1_700_000_000_000L);
    assertThat(t.log.commitTimestamp(1)).isEqualTo(1_700_000_000_000L);
  }

  @Test
  void historyAndCommitReading() {
    TestLog t = new TestLog(tmp).create(TestLog.add("a"));
    t.commit(1, TestLog.info("WRITE"), TestLog.add("b")).commit(2, TestLog.add("c"));

    List<HistoryEntry> history = t.log.history(10);

    assertThat(history).extracting(HistoryEntry::version).containsExactly(2L, 1L, 0L);
    assertThat(history.get(0).commitInfo()).isNull();
    assertThat(history.get(1).commitInfo().operation()).isEqualTo("WRITE");
    assertThat(t.log.readCommit(2)).containsExactly(TestLog.add("c"));
    assertThat(t.log.latestVersion()).isEqualTo(OptionalLong.of(2));
    assertThat(t.log.exists()).isTrue();
    assertThatThrownBy(() -> t.log.readCommit(3))
        .isInstanceOf(ObjectNotFoundException.class)
        .hasMessageContaining("Cannot read version 3")
        .hasMessageContaining("00000000000000000003.json does not exist");
  }

  @Test
  void snapshotKeepsProtocolMetadataAndFileOrder() {
    TestLog t = new TestLog(tmp).create(TestLog.add("a"), TestLog.add("b"));
    t.commit(1, TestLog.add("c"), Protocol.of(1, 2));

    SnapshotState s = t.log.snapshot();

    assertThat(s.activeFiles().values()).extracting(AddFile::path)
        .containsExactly("day=1/a.parquet", "day=1/b.parquet", "day=1/c.parquet");
    assertThat(s.activeFiles().keySet()).first().asString()
        .isEqualTo(t.store.uriOf("tables/t/day=1/a.parquet").toString().replace("file:///", "file:/"));
    assertThat(s.schema().fieldNames()).containsExactly("id", "day");
    assertThat(s.metadata()).isEqualTo(TestLog.metadata(Map.of()));
  }
}
