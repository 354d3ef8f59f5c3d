package dev.sluice.table.internal.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.exceptions.InvalidTableException;
import dev.sluice.table.exceptions.TableNotFoundException;
import dev.sluice.table.storage.ObjectStatus;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogSegmentsTest {
  @TempDir
  Path tmp;

  private TestLog tableWithCheckpointAt(long checkpointVersion, long latest) {
    TestLog t = new TestLog(tmp).create(TestLog.add("f0"));
    for (long v = 1; v <= latest; v++) {
      t.commit(v, TestLog.add("f" + v));
      if (v == checkpointVersion) {
        t.log.checkpoint(t.log.snapshot());
      }
    }
    return t;
  }

  private LogSegment build(TestLog t, OptionalLong target) {
    return LogSegments.build(t.store, t.log.logPath(), target);
  }

  @Test
  void noLogFolderIsNoTable() {
    TestLog t = new TestLog(tmp);

    assertThatThrownBy(() -> build(t, OptionalLong.empty()))
        .isInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("No Delta table at " + t.store.uriOf("tables/t"))
        .hasMessageContaining("there is no " + t.store.uriOf("tables/t/_delta_log") + " folder");
  }

  @Test
  void logFolderWithoutCommitIsNoTable() {
    TestLog t = new TestLog(tmp);
    t.write("_last_checkpoint", "{\"version\":3}");

    assertThatThrownBy(() -> build(t, OptionalLong.empty()))
        .isInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("holds no commit file");
  }

  @Test
  void segmentIsCheckpointPlusLaterCommits() {
    TestLog t = tableWithCheckpointAt(3, 5);

    LogSegment s = build(t, OptionalLong.empty());

    assertThat(s.version()).isEqualTo(5);
    assertThat(s.checkpointVersion()).isEqualTo(OptionalLong.of(3));
    assertThat(s.deltas()).extracting(d -> FileNames.versionOf(d.key())).containsExactly(4L, 5L);
  }

  @Test
  void checkpointNewerThanTargetIsNotUsed() {
    TestLog t = tableWithCheckpointAt(3, 5);

    LogSegment s = build(t, OptionalLong.of(2));

    assertThat(s.checkpoint()).isEmpty();
    assertThat(s.deltas()).extracting(d -> FileNames.versionOf(d.key())).containsExactly(0L, 1L, 2L);
  }

  @Test
  void corruptOrStaleHintFallsBackToListing() {
    TestLog t = tableWithCheckpointAt(3, 5);
    t.write("_last_checkpoint", "{not json");
    assertThat(build(t, OptionalLong.empty()).checkpointVersion()).isEqualTo(OptionalLong.of(3));

    t.write("_last_checkpoint", "{\"version\":4,\"size\":3}");
    assertThat(build(t, OptionalLong.empty()).checkpointVersion()).isEqualTo(OptionalLong.of(3));

    t.write("_last_checkpoint", "");
    assertThat(build(t, OptionalLong.empty()).deltas()).hasSize(2);
  }

  @Test
  void incompleteMultiPartCheckpointIsSkipped() {
    TestLog t = tableWithCheckpointAt(2, 5);
    // one part of a two-part set at version 4: unusable, so replay starts at the checkpoint of version 2
    t.store.create(FileNames.checkpointPartFile(t.log.logPath(), 4, 1, 2), new byte[] {1});

    LogSegment s = build(t, OptionalLong.empty());

    assertThat(s.checkpointVersion()).isEqualTo(OptionalLong.of(2));
    assertThat(s.deltas()).extracting(ObjectStatus::name)
        .containsExactly("00000000000000000003.json", "00000000000000000004.json", "00000000000000000005.json");
  }

  @Test
  void gapNamesTheMissingFile() {
    TestLog t = tableWithCheckpointAt(-1, 3);
    t.delete("00000000000000000002.json");

    assertThatThrownBy(() -> build(t, OptionalLong.empty()))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("missing the commit file 00000000000000000002.json (version 2)")
        .hasMessageContaining("tables/t");
  }

  @Test
  void targetAfterLatestNamesTheRange() {
    TestLog t = tableWithCheckpointAt(-1, 3);

    assertThatThrownBy(() -> build(t, OptionalLong.of(7)))
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining("Cannot load version 7")
        .hasMessageContaining("the latest version is 3. Versions 0 to 3 are available.");
  }

  @Test
  void versionsBeforeACleanedUpCheckpointAreNotReconstructable() {
    TestLog t = tableWithCheckpointAt(3, 5);
    for (int v = 0; v <= 2; v++) {
      t.delete(String.format("%020d.json", v));
    }

    assertThat(build(t, OptionalLong.of(3)).checkpointVersion()).isEqualTo(OptionalLong.of(3));
    assertThatThrownBy(() -> build(t, OptionalLong.of(1)))
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining("Cannot load version 1")
        .hasMessageContaining("Versions 3 to 5 are available.");
  }

  @Test
  void timestampsAreMonotonised() {
    TestLog t = tableWithCheckpointAt(-1, 2);
    t.mtime(0, 5000).mtime(1, 4000).mtime(2, 4500);

    assertThat(build(t, OptionalLong.empty()).lastCommitTimestamp()).isEqualTo(5002);
    assertThat(build(t, OptionalLong.of(0)).lastCommitTimestamp()).isEqualTo(5000);
    assertThat(t.log.commitTimestamp(1)).isEqualTo(5001);
  }
}
