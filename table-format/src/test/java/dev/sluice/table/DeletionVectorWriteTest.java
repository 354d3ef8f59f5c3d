package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.ConcurrentModificationException;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.storage.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DELETE and MERGE on a table with {@code delta.enableDeletionVectors=true}: rows are marked, files kept. */
class DeletionVectorWriteTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;
  LocalObjectStore local;
  HookedObjectStore hooked;
  Table table;

  @BeforeEach
  void setUp() {
    local = new LocalObjectStore(dir);
    hooked = new HookedObjectStore(local);
    table = Table.forPath(hooked, "t");
    table.create(Orders.SCHEMA).property("delta.enableDeletionVectors", "true").enableChangeDataFeed().commit();
    table.newAppend().rows(Orders.range(0, 10)).commit();
  }

  @Test
  void aTableWithThePropertyHasTheDeletionVectorsFeature() {
    Snapshot s = table.latestSnapshot();
    assertThat(s.minReaderVersion()).isEqualTo(3);
    assertThat(s.minWriterVersion()).isEqualTo(7);
  }

  @Test
  void deleteMarksRowsInADeletionVectorAndKeepsTheFile() throws IOException {
    String file = onlyFile();
    CommitResult first = table.newDelete().where(Predicate.eq("id", "o000002")).commit();
    CommitResult second = table.newDelete().where(Predicate.eq("id", "o000005")).commit();

    assertThat(ids()).hasSize(8).doesNotContain("o000002", "o000005");
    assertThat(onlyFile()).isEqualTo(file);
    assertThat(table.latestSnapshot().numRecords()).hasValue(8);
    assertThat(first.metric("numDeletedRows")).isEqualTo(1);
    assertThat(first.metric("numDeletionVectorsAdded")).isEqualTo(1);
    assertThat(first.metric("numDeletionVectorsRemoved")).isEqualTo(0);
    assertThat(second.metric("numDeletionVectorsRemoved")).isEqualTo(1);
    JsonNode add = action(second.version(), "add");
    assertThat(add.path("path").asText()).isEqualTo(file);
    assertThat(add.path("deletionVector").path("storageType").asText()).isEqualTo("u");
    assertThat(add.path("deletionVector").path("cardinality").asLong()).isEqualTo(2);
    JsonNode stats = JSON.readTree(add.path("stats").asText());
    assertThat(stats.path("numRecords").asLong()).isEqualTo(10);
    assertThat(stats.path("tightBounds").asBoolean(true)).isFalse();
    JsonNode remove = action(second.version(), "remove");
    assertThat(remove.path("deletionVector").path("cardinality").asLong()).isEqualTo(1);
    assertThat(dvFiles()).hasSize(2);
  }

  @Test
  void aSnapshotsFileListReadsWithoutTheRowsItsDeletionVectorDeletes() {
    table.newDelete().where(Predicate.in("id", List.of("o000001", "o000003"))).commit();
    Snapshot s = table.latestSnapshot();
    DataFile file = s.files().get(0);
    assertThat(file.hasDeletionVector()).isTrue();
    assertThat(file.numRecords()).hasValue(8);
    // as a stream reads the files of a snapshot
    try (CloseableIterator<Row> rows = Table.forPath(local, "t").latestSnapshot().rowsOf(file)) {
      assertThat(rows.toList()).hasSize(8).noneMatch(r -> r.get(0).equals("o000001"));
    }
  }

  @Test
  void deletingEveryRemainingRowRemovesTheFile() {
    table.newDelete().where(Predicate.lt("id", "o000005")).commit();
    CommitResult r = table.newDelete().where(Predicate.ge("id", "o000005")).commit();
    assertThat(ids()).isEmpty();
    assertThat(table.latestSnapshot().files()).isEmpty();
    assertThat(r.metric("numRemovedFiles")).isEqualTo(1);
  }

  @Test
  void mergeWritesUpdatedRowsToNewFilesAndMarksTheOldOnes() {
    String file = onlyFile();
    List<Row> source = List.of(Orders.order(3, "paid", 1, 5), Orders.order(4, "paid", 1, 5), Orders.order(20, "new", 1, 5));
    CommitResult r = table.newMerge().source(Orders.SCHEMA, source).on("id").whenMatchedUpdate().whenNotMatchedInsert()
        .commit();

    assertThat(ids()).hasSize(11);
    assertThat(statusById()).containsEntry("o000003", "paid").containsEntry("o000004", "paid")
        .containsEntry("o000005", "open").containsEntry("o000020", "new");
    assertThat(table.latestSnapshot().files()).extracting(DataFile::logPath).contains(file).hasSize(3);
    assertThat(r.metric("numTargetRowsUpdated")).isEqualTo(2);
    assertThat(r.metric("numTargetRowsInserted")).isEqualTo(1);
    assertThat(r.metric("numTargetRowsCopied")).isEqualTo(0);
    assertThat(r.metric("numTargetDeletionVectorsAdded")).isEqualTo(1);
    assertThat(r.metric("numTargetDeletionVectorsRemoved")).isEqualTo(0);
    assertThat(r.metric("numTargetBytesAdded")).isPositive();
    assertThat(r.metric("numTargetBytesRemoved")).isEqualTo(0);

    CommitResult delete = table.newMerge().source(Orders.SCHEMA, List.of(Orders.order(6, "x", 1, 5))).on("id")
        .whenMatchedDelete().commit();
    assertThat(ids()).hasSize(10).doesNotContain("o000006");
    assertThat(delete.metric("numTargetRowsDeleted")).isEqualTo(1);
    assertThat(delete.metric("numTargetDeletionVectorsRemoved")).isEqualTo(1);
  }

  @Test
  void aMergeToldWhereItsTargetRowsAreMarksThoseAndIgnoresRowsOfOtherKeys() {
    Snapshot read = table.latestSnapshot();
    Map<String, java.util.BitSet> located = new java.util.HashMap<>();
    try (CloseableIterator<LocatedRow> rows = read.scan().filter(Predicate.in("id", List.of("o000003", "o000004")))
        .build().locatedRows()) {
      rows.forEachRemaining(r -> located.computeIfAbsent(r.file(), f -> new java.util.BitSet()).set((int) r.rowIndex()));
    }
    assertThat(located.values()).extracting(java.util.BitSet::cardinality).containsExactly(2);
    located.values().iterator().next().set(7);   // a row of a key the source doesn't hold: it matches nothing

    CommitResult r = table.newMerge().source(Orders.SCHEMA, List.of(Orders.order(3, "paid", 1, 5),
            Orders.order(4, "paid", 1, 5), Orders.order(20, "new", 1, 5)))
        .on("id").targetRowsAt(read.version(), located).whenMatchedUpdate().whenNotMatchedInsert().commit();

    assertThat(ids()).hasSize(11).doesNotHaveDuplicates();
    assertThat(statusById()).containsEntry("o000003", "paid").containsEntry("o000004", "paid")
        .containsEntry("o000007", "open").containsEntry("o000020", "new");
    assertThat(r.metric("numTargetRowsUpdated")).isEqualTo(2);
    assertThat(r.metric("numTargetRowsInserted")).isEqualTo(1);
  }

  @Test
  void aMergeToldWhereItsTargetRowsAreReadsTheirFileOnceInsteadOfTwice() {
    dev.sluice.table.testing.FailingObjectStore counting = new dev.sluice.table.testing.FailingObjectStore(local);
    long[] reads = new long[2];
    for (int told = 0; told < 2; told++) {
      Table t = Table.forPath(counting, "copy" + told);
      t.create(Orders.SCHEMA).property("delta.enableDeletionVectors", "true").commit();
      t.newAppend().rows(Orders.range(0, 10)).commit();
      Snapshot read = t.latestSnapshot();
      Map<String, java.util.BitSet> located = new java.util.HashMap<>();
      read.scan().filter(Predicate.in("id", List.of("o000003"))).build().locatedRows()
          .forEachRemaining(r -> located.computeIfAbsent(r.file(), f -> new java.util.BitSet()).set((int) r.rowIndex()));
      Merge merge = t.newMerge().source(Orders.SCHEMA, List.of(Orders.order(3, "paid", 1, 5))).on("id")
          .whenMatchedUpdate();
      if (told == 1) {
        merge.targetRowsAt(read.version(), located);
      }
      List<String> files = new ArrayList<>();
      counting.reset().failReadsMatching(k -> k.endsWith(".parquet") && files.add(k) && false);
      merge.commit();
      reads[told] = files.stream().filter(k -> k.contains(read.files().get(0).logPath())).count();
      counting.reset();
    }

    assertThat(reads[1]).isPositive().isLessThan(reads[0]);
  }

  @Test
  void rowLocationsOfAnOlderVersionAreIgnored() {
    long stale = table.latestSnapshot().version();
    table.newAppend().rows(Orders.range(10, 12)).commit();

    // An empty map would say "no file holds a source key": at a later version the MERGE reads the keys itself.
    table.newMerge().source(Orders.SCHEMA, List.of(Orders.order(3, "paid", 1, 5), Orders.order(11, "paid", 1, 5)))
        .on("id").targetRowsAt(stale, Map.of()).whenMatchedUpdate().whenNotMatchedInsert().commit();

    assertThat(ids()).hasSize(12).doesNotHaveDuplicates();
    assertThat(statusById()).containsEntry("o000003", "paid").containsEntry("o000011", "paid");
  }

  @Test
  void theChangeFeedHoldsOnlyTheChangedRowsNotTheReAddedFile() {
    long v1 = table.newDelete().where(Predicate.eq("id", "o000002")).commit().version();
    long v2 = table.newMerge().source(Orders.SCHEMA, List.of(Orders.order(3, "paid", 1, 5))).on("id")
        .whenMatchedUpdate().commit().version();
    List<String> changes = new ArrayList<>();
    ChangeFeed feed = table.changes(v1, v2);
    int type = feed.schema().indexOf("_change_type");
    try (CloseableIterator<Row> it = feed.rows()) {
      it.forEachRemaining(row -> changes.add(row.get(0) + " " + row.get(type)));
    }
    assertThat(changes).containsExactlyInAnyOrder("o000002 delete", "o000003 update_preimage",
        "o000003 update_postimage");
  }

  @Test
  void aDvCommitWithoutChangeFilesIsReadAsItsNewlyDeletedRowsOnly() throws IOException {
    table.newDelete().where(Predicate.eq("id", "o000002")).commit();
    long v = table.newDelete().where(Predicate.in("id", List.of("o000003", "o000004"))).commit().version();
    // as another engine may write it: the same commit without its cdc actions
    Path commit = dir.resolve("t/_delta_log/" + String.format("%020d.json", v));
    List<String> lines = Files.readAllLines(commit).stream().filter(l -> !l.startsWith("{\"cdc\"")).toList();
    Files.write(commit, lines);
    List<String> changes = new ArrayList<>();
    ChangeFeed feed = Table.forPath(local, "t").changes(v, v);
    int type = feed.schema().indexOf("_change_type");
    try (CloseableIterator<Row> it = feed.rows()) {
      it.forEachRemaining(row -> changes.add(row.get(0) + " " + row.get(type)));
    }
    assertThat(changes).containsExactlyInAnyOrder("o000003 delete", "o000004 delete");
  }

  @Test
  void optimizeAppliesDeletionVectorsAndVacuumDeletesTheUnreferencedDvFiles() throws IOException {
    table.newDelete().where(Predicate.eq("id", "o000002")).commit();
    table.newDelete().where(Predicate.eq("id", "o000007")).commit();
    List<String> before = ids();
    Optimize.Result r = table.optimize().execute();
    assertThat(r.filesRemoved()).isEqualTo(1);
    assertThat(ids()).isEqualTo(before).hasSize(8);
    assertThat(table.latestSnapshot().numRecords()).hasValue(8);
    assertThat(action(table.latestVersion().getAsLong(), "add").has("deletionVector")).isFalse();

    ageEveryFile();
    Vacuum.Result v = table.vacuum().retain(Duration.ZERO).force(true).execute();
    assertThat(v.files()).filteredOn(f -> f.contains("deletion_vector_")).hasSize(2);
    assertThat(dvFiles()).isEmpty();
    assertThat(ids()).isEqualTo(before);
  }

  @Test
  void vacuumKeepsTheDvFilesOfLiveFiles() throws IOException {
    table.newDelete().where(Predicate.eq("id", "o000002")).commit();
    table.newDelete().where(Predicate.eq("id", "o000004")).commit();
    ageEveryFile();
    Vacuum.Result v = table.vacuum().retain(Duration.ZERO).force(true).execute();
    // the first DV was replaced by the second (a union of both): only the live one is kept
    assertThat(v.files()).filteredOn(f -> f.contains("deletion_vector_")).hasSize(1);
    assertThat(dvFiles()).hasSize(1);
    assertThat(ids()).hasSize(8).doesNotContain("o000002", "o000004");
  }

  @Test
  void aDeleteLosingToAConcurrentDeleteOfTheSameFileConflicts() {
    Table other = Table.forPath(local, "t");
    hooked.beforeNextCommit(key -> other.newDelete().where(Predicate.eq("id", "o000001")).commit());
    assertThatThrownBy(() -> table.newDelete().where(Predicate.eq("id", "o000008")).retries(0).commit())
        .isInstanceOf(ConcurrentModificationException.class).hasMessageContaining("DELETE (version 2)");
    assertThat(ids()).hasSize(9).doesNotContain("o000001").contains("o000008");
    // the loser's DV file was deleted: only the winner's remains
    assertThat(dvFiles()).hasSize(1);
  }

  @Test
  void aDeleteRetriedAfterAConcurrentDeleteKeepsBothDeletions() {
    Table other = Table.forPath(local, "t");
    hooked.beforeNextCommit(key -> other.newDelete().where(Predicate.eq("id", "o000001")).commit());
    table.newDelete().where(Predicate.eq("id", "o000008")).commit();
    assertThat(ids()).hasSize(8).doesNotContain("o000001", "o000008");
  }

  @Test
  void aMergeLosingToAConcurrentMergeOfTheSameFileRetriesAndKeepsBoth() {
    Table other = Table.forPath(local, "t");
    hooked.beforeNextCommit(key -> other.newMerge().source(Orders.SCHEMA, List.of(Orders.order(3, "paid", 1, 5)))
        .on("id").whenMatchedUpdate().commit());
    table.newMerge().source(Orders.SCHEMA, List.of(Orders.order(4, "shipped", 1, 5))).on("id").whenMatchedUpdate()
        .commit();
    assertThat(ids()).hasSize(10);
    assertThat(statusById()).containsEntry("o000003", "paid").containsEntry("o000004", "shipped");
  }

  private void ageEveryFile() throws IOException {
    FileTime old = FileTime.from(Instant.now().minus(Duration.ofDays(30)));
    try (Stream<Path> files = Files.walk(dir.resolve("t"))) {
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        Files.setLastModifiedTime(p, old);
      }
    }
  }

  private List<String> dvFiles() {
    return local.list("t/").toList().stream().map(s -> s.key()).filter(k -> k.contains("deletion_vector_")).toList();
  }

  private String onlyFile() {
    List<DataFile> files = table.latestSnapshot().files();
    assertThat(files).hasSize(1);
    return files.get(0).logPath();
  }

  private JsonNode action(long version, String type) throws IOException {
    Path commit = dir.resolve("t/_delta_log/" + String.format("%020d.json", version));
    for (String line : Files.readAllLines(commit)) {
      JsonNode n = JSON.readTree(line);
      if (n.has(type)) {
        return n.get(type);
      }
    }
    throw new AssertionError("no " + type + " in version " + version);
  }

  private List<String> ids() {
    return TableWriteTest.rows(table).stream().map(r -> (String) r.get(0)).collect(Collectors.toList());
  }

  private Map<String, Object> statusById() {
    return TableWriteTest.rows(table).stream().collect(Collectors.toMap(r -> (String) r.get(0), r -> r.get(4)));
  }
}
