package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.ConcurrentModificationException;
import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OptimizeTest {
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;
  HookedObjectStore store;
  Table table;

  @BeforeEach
  void setUp() {
    store = new HookedObjectStore(new LocalObjectStore(dir));
    table = Table.forPath(store, "silver/orders");
  }

  private void fiveSmallAppends() {
    table.create(Orders.SCHEMA).commit();
    for (int i = 0; i < 5; i++) {
      table.newAppend().rows(Orders.range(i * 10, i * 10 + 10)).commit();
    }
  }

  /** The actions of one commit file as JSON objects. */
  private List<JsonNode> commit(long version) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve(String.format("silver/orders/_delta_log/%020d.json", version)))) {
      out.add(JSON.readTree(line));
    }
    return out;
  }

  @Test
  void smallFilesAreBinPackedInADataChangeFalseCommitAndTheRowsStayTheSame() throws Exception {
    fiveSmallAppends();
    List<Row> before = TableWriteTest.rows(table);

    Optimize.Result r = table.optimize().execute();

    assertThat(r.readVersion()).isEqualTo(5);
    assertThat(r.committedVersion()).hasValue(6);
    assertThat(r.filesRemoved()).isEqualTo(5);
    assertThat(r.filesAdded()).isEqualTo(1);
    assertThat(table.latestSnapshot().files()).hasSize(1);
    assertThat(TableWriteTest.rows(table)).containsExactlyElementsOf(before);
    List<JsonNode> actions = commit(6);
    assertThat(actions).filteredOn(a -> a.has("add") || a.has("remove")).hasSize(6)
        .allSatisfy(a -> assertThat((a.has("add") ? a.get("add") : a.get("remove")).get("dataChange").asBoolean()).isFalse());
    HistoryEntry h = table.history(1).get(0);
    assertThat(h.operation()).isEqualTo("OPTIMIZE");
    assertThat(h.operationParameters()).containsEntry("predicate", "[]").containsEntry("zOrderBy", "[]")
        .containsEntry("auto", "false");
    assertThat(h.operationMetrics()).containsEntry("numRemovedFiles", "5").containsEntry("numAddedFiles", "1");
    assertThat(h.isBlindAppend()).isFalse();
    // time travel to before the compaction reads the same rows from the old files
    try (CloseableIterator<Row> it = table.snapshotAt(5).scan().build().rows()) {
      assertThat(it.toList()).containsExactlyInAnyOrderElementsOf(before);
    }
  }

  @Test
  void aSecondRunFindsNothingToDo() {
    fiveSmallAppends();
    table.optimize().execute();

    Optimize.Result again = table.optimize().execute();

    assertThat(again.noop()).isTrue();
    assertThat(again.filesRemoved()).isZero();
    assertThat(table.latestVersion()).hasValue(6);
  }

  @Test
  void atATargetSizeTheWriterUndershootsASecondRunStillDoesNothingUntilNewFilesArrive() {
    table.create(OptimizeTest.POINTS).commit();
    for (long a = 0; a < 8; a++) {
      List<Row> rows = new ArrayList<>();
      for (long i = 0; i < 200; i++) {
        rows.add(Row.of(a * 1000 + i, i, a));
      }
      table.newAppend().rows(rows).commit();
    }
    Optimize.Result first = table.optimize().targetFileSize(4 * 1024).execute();
    assertThat(first.filesRemoved()).isEqualTo(8);
    assertThat(table.latestSnapshot().files()).as("outputs below the asked size").anyMatch(f -> f.size() < 4 * 1024);

    assertThat(table.optimize().targetFileSize(4 * 1024).execute().noop()).isTrue();

    table.newAppend().rows(List.of(Row.of(99_999L, 1L, 1L))).commit();
    assertThat(table.optimize().targetFileSize(4 * 1024).execute().noop()).isFalse();
    assertThat(table.latestSnapshot().numRecords()).hasValue(1601);
  }

  @Test
  void onlyFilesBelowTheTargetSizeAreRewritten() {
    table.create(Orders.SCHEMA).commit();
    table.newAppend().rows(Orders.range(0, 5000)).commit();
    long big = table.latestSnapshot().files().get(0).size();
    for (int i = 0; i < 3; i++) {
      table.newAppend().rows(Orders.range(5000 + i, 5001 + i)).commit();
    }

    Optimize.Result r = table.optimize().targetFileSize(big).execute();

    assertThat(r.filesRemoved()).isEqualTo(3);
    assertThat(table.latestSnapshot().files()).extracting(DataFile::size).contains(big).hasSize(2);
    assertThat(TableWriteTest.rows(table)).hasSize(5003);
  }

  @Test
  void aPartitionPredicateLimitsTheCompactionToMatchingPartitions() {
    table.create(Orders.SCHEMA).partitionBy("status").commit();
    for (int i = 0; i < 3; i++) {
      table.newAppend().rows(List.of(Orders.order(i, "open", 1, 0), Orders.order(100 + i, "done", 1, 0))).commit();
    }

    Optimize.Result r = table.optimize().where(Predicate.eq("status", "open")).execute();

    assertThat(r.filesRemoved()).isEqualTo(3);
    assertThat(r.partitionsOptimized()).isEqualTo(1);
    assertThat(table.latestSnapshot().files()).extracting(f -> f.partitionValues().get("status"))
        .containsExactlyInAnyOrder("open", "done", "done", "done");
    assertThat(table.history(1).get(0).operationParameters().get("predicate")).contains("status = 'open'");
  }

  @Test
  void aPredicateOnDataColumnsIsRefusedNamingThem() {
    fiveSmallAppends();

    assertThatThrownBy(() -> table.optimize().where(Predicate.gt("amount", 3.0)).execute())
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining("reads the data columns [amount]")
        .hasMessageContaining("may only use the partition columns []");
  }

  @Test
  void anUnknownOrderColumnIsRefusedListingTheColumns() {
    fiveSmallAppends();

    assertThatThrownBy(() -> table.optimize().zOrderBy("amount", "nope").execute())
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining("Cannot Z-order by 'nope': the table has no such column")
        .hasMessageContaining("[id, customer, ts, amount, status, updated_at]");
  }

  static final StructType POINTS = StructType.of(StructField.of("id", PrimitiveType.LONG, false),
      StructField.of("x", PrimitiveType.LONG), StructField.of("y", PrimitiveType.LONG));

  private void randomPoints(int appends, int perAppend) {
    table.create(POINTS).commit();
    Random random = new Random(42);
    long id = 0;
    for (int a = 0; a < appends; a++) {
      List<Row> rows = new ArrayList<>();
      for (int i = 0; i < perAppend; i++) {
        rows.add(Row.of(id++, (long) random.nextInt(1000), (long) random.nextInt(1000)));
      }
      table.newAppend().rows(rows).commit();
    }
  }

  private int filesRead(Predicate p) {
    return table.latestSnapshot().scan().filter(p).build().files().size();
  }

  private long count(Predicate p) {
    try (CloseableIterator<Row> it = table.latestSnapshot().scan().filter(p).build().rows()) {
      return it.toList().stream().filter(r -> p.bind(POINTS).test(r)).count();
    }
  }

  @Test
  void zOrderMakesFileStatsSkipFilesForFiltersOnEitherColumn() {
    randomPoints(16, 250);
    Predicate onX = Predicate.and(Predicate.ge("x", 100L), Predicate.lt("x", 150L));
    Predicate onY = Predicate.and(Predicate.ge("y", 800L), Predicate.lt("y", 850L));
    long xRows = count(onX);
    long yRows = count(onY);
    assertThat(filesRead(onX)).isEqualTo(16);

    Optimize.Result r = table.optimize().zOrderBy("x", "y").targetFileSize(4 * 1024).execute();

    int files = table.latestSnapshot().files().size();
    assertThat(r.filesRemoved()).isEqualTo(16);
    assertThat(files).isGreaterThan(4);
    assertThat(filesRead(onX)).isLessThan(files * 2 / 3);
    assertThat(filesRead(onY)).isLessThan(files * 2 / 3);
    assertThat(count(onX)).isEqualTo(xRows);
    assertThat(count(onY)).isEqualTo(yRows);
    assertThat(table.latestSnapshot().numRecords()).hasValue(4000);
    assertThat(table.history(1).get(0).operationParameters()).containsEntry("zOrderBy", "[\"x\",\"y\"]");
    assertThat(table.optimize().zOrderBy("x", "y").targetFileSize(4 * 1024).execute().noop()).isTrue();
  }

  @Test
  void clusteringSortsTheRowsSoFilesHoldDisjointRangesOfTheFirstColumn() {
    randomPoints(8, 250);

    table.optimize().clusterBy("x").targetFileSize(4 * 1024).execute();

    List<DataFile> files = table.latestSnapshot().files();
    assertThat(files.size()).isGreaterThan(2);
    Predicate narrow = Predicate.and(Predicate.ge("x", 500L), Predicate.lt("x", 510L));
    assertThat(filesRead(narrow)).isLessThanOrEqualTo(2);
    assertThat(table.history(1).get(0).operationParameters()).containsEntry("clusterBy", "[\"x\"]");
    table.newAppend().rows(List.of(Row.of(9999L, 1L, 1L))).commit();
    assertThat(table.optimize().clusterBy("x").targetFileSize(4 * 1024).execute().filesRemoved())
        .as("only the new file and the clustered file whose x range holds its x = 1 are rewritten").isEqualTo(2);
    assertThat(filesRead(Predicate.eq("x", 1L))).isEqualTo(1);
  }

  @Test
  void aConcurrentAppendNeverFailsIt() {
    fiveSmallAppends();
    Table other = Table.forPath(new LocalObjectStore(dir), "silver/orders");
    store.beforeNextCommit(key -> other.newAppend().rows(Orders.range(100, 103)).commit());

    Optimize.Result r = table.optimize().execute();

    assertThat(r.readVersion()).isEqualTo(5);
    assertThat(r.committedVersion()).hasValue(7);
    assertThat(TableWriteTest.rows(table)).hasSize(53);
  }

  @Test
  void aConcurrentDeleteOfAFileItRewritesFailsItWithATypedConflict() {
    fiveSmallAppends();
    Table other = Table.forPath(new LocalObjectStore(dir), "silver/orders");
    store.beforeNextCommit(key -> other.newDelete().where(Predicate.eq("id", "o000003")).commit());

    assertThatThrownBy(() -> table.optimize().execute())
        .isInstanceOf(ConcurrentModificationException.class)
        .hasMessageContaining("A concurrent DELETE (version 6)");
    assertThat(TableWriteTest.rows(table)).hasSize(49);
    assertThat(table.latestSnapshot().files()).hasSize(5);
  }

  @Test
  void withRetriesItPlansAgainAfterAConflictAndCompactsWhatIsThere() {
    fiveSmallAppends();
    Table other = Table.forPath(new LocalObjectStore(dir), "silver/orders");
    store.beforeNextCommit(key -> other.newDelete().where(Predicate.eq("id", "o000003")).commit());

    Optimize.Result r = table.optimize().retries(1).execute();

    assertThat(r.readVersion()).isEqualTo(6);
    assertThat(table.latestSnapshot().files()).hasSize(1);
    assertThat(TableWriteTest.rows(table)).hasSize(49);
  }

  @Test
  void autoCompactionCompactsAPartitionOnceItHoldsFiftySmallFiles() {
    table.create(Orders.SCHEMA).property("delta.autoOptimize.autoCompact", "true").commit();
    for (int i = 0; i < 49; i++) {
      table.newAppend().rows(Orders.range(i, i + 1)).commit();
    }
    assertThat(table.latestSnapshot().files()).hasSize(49);

    table.newAppend().rows(Orders.range(49, 50)).commit();

    assertThat(table.latestVersion()).hasValue(51);
    assertThat(table.latestSnapshot().files()).hasSize(1);
    HistoryEntry h = table.history(1).get(0);
    assertThat(h.operation()).isEqualTo("OPTIMIZE");
    assertThat(h.operationParameters()).containsEntry("auto", "true");
    assertThat(TableWriteTest.rows(table)).containsExactlyElementsOf(Orders.range(0, 50));
  }

  @Test
  void withoutTheOptionAppendsLeaveTheSmallFiles() {
    table.create(Orders.SCHEMA).commit();
    for (int i = 0; i < 50; i++) {
      table.newAppend().rows(Orders.range(i, i + 1)).commit();
    }
    assertThat(table.latestSnapshot().files()).hasSize(50);
    table.newAppend().autoCompact(true).rows(Orders.range(50, 51)).commit();
    assertThat(table.latestSnapshot().files()).hasSize(1);
  }
}
