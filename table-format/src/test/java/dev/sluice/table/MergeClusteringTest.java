package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.table.data.Row;
import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.actions.RemoveFile;
import dev.sluice.table.internal.log.DeltaLog;
import dev.sluice.table.storage.LocalObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A keyed table built by MERGEs of batches whose keys arrive shuffled, with a small target file size: the MERGE
 * writes its rows sorted by key into many files of narrow key ranges, so an increment of a few keys reads and
 * changes only the files whose range holds them; OPTIMIZE on a table clustered by the key restores disjoint ranges.
 */
class MergeClusteringTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int BATCHES = 4;
  private static final int BATCH_ROWS = 2_000;
  @TempDir Path dir;

  private record Range(String path, String min, String max) {
    boolean holds(String key) {
      return min.compareTo(key) <= 0 && key.compareTo(max) <= 0;
    }
  }

  private Table keyedTable(boolean deletionVectors) {
    LocalObjectStore store = new LocalObjectStore(dir);
    Table table = Table.forPath(store, "t");
    table.create(Orders.SCHEMA).property("delta.enableDeletionVectors", Boolean.toString(deletionVectors))
        .property("delta.targetFileSize", "8kb").clusterBy("id").commit();
    Random random = new Random(11);
    for (int b = 0; b < BATCHES; b++) {
      // Even ids only, so that an increment can insert new keys between existing ones.
      List<Row> batch = new ArrayList<>();
      for (int i = b * BATCH_ROWS; i < (b + 1) * BATCH_ROWS; i++) {
        batch.add(Orders.order(2 * i, "open", i, 0));
      }
      Collections.shuffle(batch, random);
      table.newMerge().source(Orders.SCHEMA, batch).on("id").whenMatchedUpdate().whenNotMatchedInsert().commit();
    }
    return table;
  }

  private static List<Range> ranges(Table table) {
    List<Range> out = new ArrayList<>();
    for (DataFile f : table.latestSnapshot().files()) {
      try {
        JsonNode stats = JSON.readTree(f.statsJson());
        out.add(new Range(f.logPath(), stats.at("/minValues/id").asText(), stats.at("/maxValues/id").asText()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  private static Set<String> holding(List<Range> ranges, List<String> keys) {
    return ranges.stream().filter(r -> keys.stream().anyMatch(r::holds)).map(Range::path).collect(Collectors.toSet());
  }

  private static CommitResult updateKeys(Table table, int... ids) {
    List<Row> rows = new ArrayList<>();
    for (int id : ids) {
      rows.add(Orders.order(id, "paid", 1, 99));
    }
    return table.newMerge().source(Orders.SCHEMA, rows).on("id").whenMatchedUpdate().whenNotMatchedInsert().commit();
  }

  private static List<String> keys(int... ids) {
    List<String> out = new ArrayList<>();
    for (int id : ids) {
      out.add(String.format("o%06d", id));
    }
    return out;
  }

  private static Set<String> removedPaths(Table table, long version) {
    List<Action> actions = new DeltaLog(table.store(), table.path()).readCommit(version);
    return actions.stream().filter(a -> a instanceof RemoveFile).map(a -> ((RemoveFile) a).path())
        .collect(Collectors.toSet());
  }

  private static long addedDataFiles(Table table, long version) {
    return new DeltaLog(table.store(), table.path()).readCommit(version).stream()
        .filter(a -> a instanceof AddFile add && add.deletionVectorJson() == null).count();
  }

  @ParameterizedTest(name = "deletion vectors {0}")
  @ValueSource(booleans = {false, true})
  void anIncrementOfAFewKeysTouchesOnlyTheFilesWhoseKeyRangeHoldsThem(boolean deletionVectors) {
    Table table = keyedTable(deletionVectors);
    List<Range> before = ranges(table);
    int[] ids = {4_690, 4_692, 10_002};
    Set<String> expected = holding(before, keys(ids));

    CommitResult r = updateKeys(table, ids);

    assertThat(before).hasSizeGreaterThan(40);
    // Each batch's rows were sorted before rolling into files, so its files hold disjoint slices of its keys.
    assertThat(expected).hasSizeBetween(2, 3);
    assertThat(r.metric("numTargetFilesScanned")).isEqualTo(expected.size());
    assertThat(r.metric("numTargetFilesRemoved") + r.metric("numTargetDeletionVectorsAdded"))
        .isEqualTo(expected.size());
    assertThat(removedPaths(table, r.version())).isEqualTo(expected);
    assertThat(r.metric("numTargetRowsUpdated")).isEqualTo(3);
    assertThat(r.metric("numTargetRowsCopied")).isLessThan(deletionVectors ? 1 : 3L * BATCH_ROWS / 10);
    assertThat(TableWriteTest.rows(table).stream().filter(x -> "paid".equals(x.get(4))).map(x -> x.get(0)))
        .containsExactlyInAnyOrderElementsOf(keys(ids));
  }

  @ParameterizedTest(name = "deletion vectors {0}")
  @ValueSource(booleans = {false, true})
  void optimizeOnATableClusteredByTheKeyRestoresDisjointKeyRanges(boolean deletionVectors) {
    Table table = keyedTable(deletionVectors);
    // The first OPTIMIZE clusters (and tags) every file the MERGEs wrote.
    assertThat(table.optimize().execute().noop()).isFalse();
    // No increment below touches keys above o006004: the clustered files there must stay as they are.
    Set<String> beyondIncrements = ranges(table).stream().filter(x -> x.min().compareTo("o006004") > 0)
        .map(Range::path).collect(Collectors.toSet());
    // Increments inserting keys between existing ones (and, with DVs, writing their updated rows to one new file
    // sorted by key) leave files whose key ranges overlap.
    for (int i = 0; i < 3; i++) {
      updateKeys(table, 20 + 2 * i, 6_000 + 2 * i, 1_001 + 2 * i);
    }
    assertThat(overlaps(ranges(table))).isPositive();

    Optimize.Result optimized = table.optimize().execute();

    List<Range> after = ranges(table);
    assertThat(optimized.noop()).isFalse();
    assertThat(overlaps(after)).isZero();
    assertThat(table.latestSnapshot().files()).noneMatch(DataFile::hasDeletionVector);
    assertThat(TableWriteTest.rows(table)).hasSize(BATCHES * BATCH_ROWS + 3);
    // Clustered files away from the increments' keys were kept: the rewrite covered only the overlapping run.
    assertThat(beyondIncrements).hasSizeGreaterThan(10);
    assertThat(after.stream().map(Range::path)).containsAll(beyondIncrements);

    int[] ids = {12_000};
    CommitResult r = updateKeys(table, ids);
    assertThat(r.metric("numTargetFilesScanned")).isEqualTo(1);
    assertThat(removedPaths(table, r.version())).isEqualTo(holding(after, keys(ids)));
    assertThat(addedDataFiles(table, r.version())).isEqualTo(1);
  }

  @org.junit.jupiter.api.Test
  void clusteringSortsInSpilledRunsWhenTheRowsExceedTheSortBuffer() {
    Table table = Table.forPath(new LocalObjectStore(dir), "t");
    table.create(Orders.SCHEMA).property("delta.targetFileSize", "8kb").clusterBy("id").commit();
    // Appends keep the rows' arrival order: every file spans the whole key range.
    List<Row> shuffled = Orders.range(0, BATCHES * BATCH_ROWS);
    Collections.shuffle(shuffled, new Random(5));
    for (int b = 0; b < BATCHES; b++) {
      table.newAppend().rows(shuffled.subList(b * BATCH_ROWS, (b + 1) * BATCH_ROWS)).commit();
    }
    assertThat(overlaps(ranges(table))).isPositive();
    List<Row> before = TableWriteTest.rows(table);
    Optimize optimize = table.optimize().sortBufferRows(500);

    optimize.execute();

    assertThat(optimize.spilledRuns()).isEqualTo(BATCHES * BATCH_ROWS / 500);
    assertThat(overlaps(ranges(table))).isZero();
    assertThat(TableWriteTest.rows(table)).containsExactlyInAnyOrderElementsOf(before);
    List<String> ids = new ArrayList<>();
    java.util.Map<String, String> minOf = ranges(table).stream().collect(Collectors.toMap(Range::path, Range::min));
    for (DataFile f : table.latestSnapshot().files().stream()
        .sorted(Comparator.comparing(f -> minOf.get(f.logPath()))).toList()) {
      table.latestSnapshot().rowsOf(f).forEachRemaining(r -> ids.add((String) r.get(0)));
    }
    assertThat(ids).isSorted().hasSize(BATCHES * BATCH_ROWS);
  }

  /** How many neighbouring files (by min key) have overlapping key ranges. */
  private static int overlaps(List<Range> ranges) {
    List<Range> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparing(Range::min));
    int n = 0;
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).min().compareTo(sorted.get(i - 1).max()) <= 0) {
        n++;
      }
    }
    return n;
  }
}
