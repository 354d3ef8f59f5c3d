package dev.sluice.table.internal.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.exceptions.InvalidTableException;
import dev.sluice.table.exceptions.TableNotFoundException;
import dev.sluice.table.exceptions.UnsupportedTableFeatureException;
import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.actions.AddCdcFile;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.actions.CommitInfo;
import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.actions.Protocol;
import dev.sluice.table.internal.actions.RemoveFile;
import dev.sluice.table.internal.actions.SetTransaction;
import dev.sluice.table.internal.replay.LogReplay;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reads the log of the golden tables written by Spark. */
class GoldenLogIT {
  private static final Path GOLDEN = Path.of(System.getProperty("sluice.shared.dir", "../../shared"), "delta-golden");
  private static final LocalObjectStore STORE = new LocalObjectStore(GOLDEN);

  private static DeltaLog log(String table) {
    assertThat(GOLDEN.resolve(table)).as("golden table folder").isDirectory();
    return new DeltaLog(STORE, table);
  }

  /** Replays every commit from version 0, ignoring checkpoints: an independent answer for checkpointed tables. */
  private static SnapshotState replayCommitsOnly(String table) {
    DeltaLog log = log(table);
    long latest = log.latestVersion().orElseThrow();
    List<ObjectStatus> deltas = Stream.iterate(0L, v -> v <= latest, v -> v + 1)
        .map(v -> STORE.status(FileNames.deltaFile(log.logPath(), v)).orElseThrow())
        .toList();
    return LogReplay.replay(STORE, table, new LogSegment(log.logPath(), latest, List.of(), deltas, 0L));
  }

  @ParameterizedTest
  @CsvSource({
      "snapshot-data0, 0, 2",
      "snapshot-data1, 1, 4",
      "snapshot-data2, 2, 2",
      "snapshot-data3, 3, 4",
      "snapshot-data2-deleted, 4, 3",
      "snapshot-repartitioned, 5, 2",
      "basic-with-inserts-deletes-checkpoint, 13, 7",
      "checkpoint, 14, 1",
      "multi-part-checkpoint, 1, 10",
      "only-checkpoint-files, 2, 7",
      "log-replay-latest-metadata-protocol, 2, 4",
      "delete-re-add-same-file-different-transactions, 3, 2",
      "data-skipping-basic-stats-all-types-checkpoint, 0, 1"})
  void latestSnapshotHasTheLiveFilesOfTheLog(String table, long version, int files) {
    SnapshotState state = log(table).snapshot();

    assertThat(state.version()).isEqualTo(version);
    assertThat(state.activeFiles()).hasSize(files);
    assertThat(state.metadata().id()).isNotBlank();
    assertThat(state.schema().fields()).isNotEmpty();
  }

  @ParameterizedTest
  @CsvSource({
      "checkpoint, 10",
      "basic-with-inserts-deletes-checkpoint, 10",
      "multi-part-checkpoint, 1",
      "only-checkpoint-files, 2",
      "corrupted-last-checkpoint, 10",
      "corrupted-last-checkpoint-kernel, 10"})
  void checkpointedTablesReplayFromTheCheckpointToTheSameState(String table, long checkpointVersion) {
    SnapshotState state = log(table).snapshot();
    SnapshotState fromCommits = replayCommitsOnly(table);

    assertThat(state.segment().checkpointVersion()).isEqualTo(OptionalLong.of(checkpointVersion));
    assertThat(state.version()).isEqualTo(fromCommits.version());
    assertThat(state.activeFiles().keySet()).containsExactlyInAnyOrderElementsOf(fromCommits.activeFiles().keySet());
    assertThat(state.protocol()).isEqualTo(fromCommits.protocol());
    assertThat(state.metadata().schemaString()).isEqualTo(fromCommits.metadata().schemaString());
    assertThat(state.transactions()).isEqualTo(fromCommits.transactions());
    state.activeFiles().forEach((path, add) -> {
      AddFile expected = fromCommits.activeFiles().get(path);
      assertThat(add.size()).isEqualTo(expected.size());
      assertThat(add.partitionValues()).isEqualTo(expected.partitionValues());
      assertThat(add.stats()).isEqualTo(expected.stats());
    });
  }

  @Test
  void multiPartCheckpointUsesBothParts() {
    SnapshotState state = log("multi-part-checkpoint").snapshot();

    assertThat(state.segment().checkpoint()).extracting(ObjectStatus::name).containsExactly(
        "00000000000000000001.checkpoint.0000000001.0000000002.parquet",
        "00000000000000000001.checkpoint.0000000002.0000000002.parquet");
    assertThat(state.segment().deltas()).isEmpty();
  }

  @Test
  void checkpointTableKeepsTheLastAddedFile() {
    SnapshotState state = log("checkpoint").snapshot();

    assertThat(state.segment().deltas()).extracting(s -> FileNames.versionOf(s.key())).containsExactly(11L, 12L, 13L, 14L);
    assertThat(state.activeFiles().values()).extracting(AddFile::path).containsExactly("15"); // v14 removes "14" and adds "15"
  }

  @Test
  void reAddedFileIsLiveWithItsNewestAdd() {
    SnapshotState state = log("delete-re-add-same-file-different-transactions").snapshot();

    assertThat(state.activeFiles().values()).extracting(AddFile::path).containsExactlyInAnyOrder("foo", "bar");
    assertThat(state.activeFiles().values()).filteredOn(a -> a.path().equals("foo"))
        .extracting(AddFile::modificationTime).containsExactly(1700000000000L);
  }

  @ParameterizedTest
  @CsvSource({"canonicalized-paths-normal-a", "canonicalized-paths-normal-b", "canonicalized-paths-special-a",
      "canonicalized-paths-special-b"})
  void removeByAbsoluteUriCancelsAddByUnqualifiedPath(String table) {
    SnapshotState state = log(table).snapshot();

    assertThat(state.version()).isEqualTo(1);
    assertThat(state.activeFiles()).isEmpty();
  }

  @Test
  void missingVersionIsNamed() {
    assertThatThrownBy(() -> log("versions-not-contiguous").snapshot())
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("00000000000000000001.json")
        .hasMessageContaining("versions-not-contiguous");
  }

  @ParameterizedTest
  @CsvSource({
      "deltalog-state-reconstruction-without-protocol, protocol",
      "deltalog-state-reconstruction-without-metadata, metaData",
      "deltalog-state-reconstruction-from-checkpoint-missing-protocol, protocol",
      "deltalog-state-reconstruction-from-checkpoint-missing-metadata, metaData"})
  void stateWithoutProtocolOrMetadataIsRefused(String table, String action) {
    assertThatThrownBy(() -> log(table).snapshot())
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("has no " + action + " action")
        .hasMessageContaining(table);
  }

  @Test
  void folderWithoutLogIsNotATable() {
    DeltaLog log = log("no-delta-log-folder");

    assertThat(log.exists()).isFalse();
    assertThatThrownBy(log::snapshot)
        .isInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("no-delta-log-folder/_delta_log");
  }

  @ParameterizedTest
  @CsvSource({
      "deltalog-invalid-protocol-version, reader version 99",
      "dv-with-columnmapping, columnMapping",
      "table-with-columnmapping-mode-id, columnMapping",
      "table-with-columnmapping-mode-name, columnMapping",
      "data-skipping-basic-stats-all-types-columnmapping-id, columnMapping",
      "table-with-icebegCompatV2Enabled, columnMapping",
      "data-reader-timestamp_ntz, timestampNtz",
      "data-reader-timestamp_ntz-id-mode, timestampNtz",
      "parquet-all-types, timestampNtz",
      "v2-checkpoint-json, v2Checkpoint",
      "v2-checkpoint-parquet, v2Checkpoint",
      "type-widening, typeWidening-preview",
      "type-widening-nested, typeWidening-preview",
      "spark-variant-checkpoint, variantType-preview",
      "collations-table, collations",
      "collations-preview-table, collations-preview"})
  void tablesWithUnsupportedFeaturesAreRefusedByName(String table, String feature) {
    assertThatThrownBy(() -> log(table).snapshot())
        .isInstanceOf(UnsupportedTableFeatureException.class)
        .hasMessageContaining(feature)
        .hasMessageContaining(table)
        .hasMessageContaining("Sluice reads tables at reader version 1");
  }

  @Test
  void upgradedProtocolWithoutReaderFeaturesIsReadable() {
    SnapshotState state = log("log-replay-latest-metadata-protocol").snapshot();

    assertThat(state.protocol()).isEqualTo(new Protocol(3, 7, List.of(), List.of("appendOnly", "invariants")));
    // version 2 replaced the metadata: its schema has col1 and col2, the schema of version 0 does not
    assertThat(state.schema().fieldNames()).containsExactly("col1", "col2");
    assertThat(log("log-replay-latest-metadata-protocol").snapshotAt(1).protocol()).isEqualTo(Protocol.of(1, 2));
  }

  @Test
  void timeTravelByVersionAndTimestamp(@TempDir Path tmp) throws IOException {
    Path table = tmp.resolve("tt");
    copy(GOLDEN.resolve("time-travel-start-start20-start40"), table);
    long start = 1540415658000L;
    for (int v = 0; v < 3; v++) {
      Files.setLastModifiedTime(table.resolve("_delta_log").resolve(String.format("%020d.json", v)),
          FileTime.fromMillis(start + v * 20L * 60 * 1000));
    }
    DeltaLog log = new DeltaLog(new LocalObjectStore(tmp), "tt");

    assertThat(log.snapshotAt(0).activeFiles()).hasSize(2);
    assertThat(log.snapshotAt(1).activeFiles()).hasSize(4);
    assertThat(log.snapshotAt(2).activeFiles()).hasSize(6);
    assertThat(log.snapshotAsOf(start).version()).isEqualTo(0);
    assertThat(log.snapshotAsOf(start + 19 * 60 * 1000).version()).isEqualTo(0);
    assertThat(log.snapshotAsOf(start + 20 * 60 * 1000).version()).isEqualTo(1);
    assertThat(log.snapshotAsOf(start + 40 * 60 * 1000).version()).isEqualTo(2);
    assertThat(log.snapshotAsOf(start + 40 * 60 * 1000).timestamp()).isEqualTo(start + 40 * 60 * 1000);
    assertThat(log.commitTimestamp(1)).isEqualTo(start + 20 * 60 * 1000);
    assertThatThrownBy(() -> log.snapshotAsOf(start - 1))
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining("before the earliest available commit")
        .hasMessageContaining("2018-10-24T21:14:18Z (version 0)");
    assertThatThrownBy(() -> log.snapshotAsOf(start + 41 * 60 * 1000))
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining("after the latest commit")
        .hasMessageContaining("(version 2) are available");
    assertThatThrownBy(() -> log.snapshotAt(3))
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining("Cannot load version 3")
        .hasMessageContaining("Versions 0 to 2 are available");
  }

  @Test
  void readCommitReturnsEachVersionsActions() {
    DeltaLog log = log("deltalog-getChanges");

    List<Action> v0 = log.readCommit(0);
    List<Action> v1 = log.readCommit(1);
    List<Action> v2 = log.readCommit(2);

    assertThat(v0).hasExactlyElementsOfTypes(CommitInfo.class, Protocol.class, Metadata.class, AddFile.class);
    assertThat(v1).hasExactlyElementsOfTypes(CommitInfo.class, AddCdcFile.class, RemoveFile.class);
    assertThat((AddCdcFile) v1.get(1)).isEqualTo(new AddCdcFile("fake/path/2",
        java.util.Map.of("partition_foo", "partition_bar"), 1, java.util.Map.of("tag_foo", "tag_bar")));
    assertThat(v2).hasExactlyElementsOfTypes(CommitInfo.class, Protocol.class, SetTransaction.class);
    assertThat(log.tryReadCommit(3)).isEmpty();
    assertThat(log.snapshot().transactionVersion("fakeAppId")).isEqualTo(OptionalLong.of(3));
  }

  @Test
  void historyShowsCommitInfo() {
    List<HistoryEntry> history = log("deltalog-commit-info").history(10);

    assertThat(history).hasSize(1);
    CommitInfo info = history.get(0).commitInfo();
    assertThat(history.get(0).version()).isEqualTo(0);
    assertThat(info.timestamp()).isEqualTo(1540415658000L);
    assertThat(info.operation()).isEqualTo("WRITE");
    assertThat(info.operationParameters()).containsEntry("test", "test");
    assertThat(info.userMetadata()).isEqualTo("foo");
    assertThat(info.extra()).containsEntry("userId", "user_0").containsEntry("clusterId", "cluster_id_0");
    assertThat(info.extra().get("job")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
        .containsEntry("jobName", "job_name_0");
  }

  @Test
  void historyIsNewestFirstAndLimited() {
    List<HistoryEntry> history = log("snapshot-repartitioned").history(2);

    assertThat(history).extracting(HistoryEntry::version).containsExactly(5L, 4L);
    assertThat(history.get(1).commitInfo().operation()).isEqualTo("DELETE");
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
