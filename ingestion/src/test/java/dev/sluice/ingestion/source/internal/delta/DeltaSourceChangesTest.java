package dev.sluice.ingestion.source.internal.delta;

import static dev.sluice.ingestion.source.internal.delta.DeltaSourceFixture.drain;
import static dev.sluice.ingestion.source.internal.delta.DeltaSourceFixture.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.ingestion.source.internal.delta.DeltaSourceFixture.Planned;
import dev.sluice.table.Snapshot;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.actions.AddCdcFile;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.log.DeltaLog;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commits that are not plain appends: compaction, deletes and merges, schema changes, cleaned logs; the change feed. */
class DeltaSourceChangesTest {
  @TempDir Path dir;
  DeltaSourceFixture t;

  @BeforeEach
  void setUp() {
    t = new DeltaSourceFixture(new LocalObjectStore(dir), "silver/orders");
  }

  private SourceOffset endOf(List<Planned> batches) {
    return batches.get(batches.size() - 1).end();
  }

  @Test
  void commitsThatOnlyRearrangeFilesAreSkipped() {
    t.table.create(DeltaSourceFixture.SCHEMA).commit();
    t.append(0, 2);
    Source source = t.source(Map.of());
    SourceOffset afterSnapshot = endOf(drain(source, Optional.empty(), ReadLimit.ALL));
    t.compactOneFile();
    t.append(2, 3);

    List<Planned> next = drain(source, Optional.of(afterSnapshot), ReadLimit.ALL);

    assertThat(ids(next)).containsExactly(2L);
    assertThat(ids(drain(t.source(Map.of("startingVersion", "0")), Optional.empty(), ReadLimit.ALL)))
        .containsExactly(0L, 1L, 2L);
  }

  @Test
  void aCommitThatDeletesRowsFailsNamingTheVersionAndBothWaysOut() {
    t.table.create(DeltaSourceFixture.SCHEMA).commit();
    t.append(0, 3);
    Source source = t.source(Map.of());
    SourceOffset afterSnapshot = endOf(drain(source, Optional.empty(), ReadLimit.ALL));
    long delete = t.table.newDelete().where(Predicate.eq("id", 1L)).commit().version();

    assertThatThrownBy(() -> source.latestOffset(Optional.of(afterSnapshot), ReadLimit.ALL))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("DeltaSource[" + t.table.uri() + "]: version " + delete + " (DELETE) deletes or updates")
        .hasMessageContaining("skipChangeCommits=true")
        .hasMessageContaining("readChangeFeed=true");
  }

  @Test
  void skipChangeCommitsSkipsDeletesAndMergesEntirely() {
    t.table.create(DeltaSourceFixture.SCHEMA).commit();
    t.append(0, 3);
    Source source = t.source(Map.of("skipChangeCommits", "true"));
    SourceOffset afterSnapshot = endOf(drain(source, Optional.empty(), ReadLimit.ALL));
    t.table.newDelete().where(Predicate.eq("id", 1L)).commit();
    t.table.newMerge().source(DeltaSourceFixture.SCHEMA, List.of(Row.of(2L, "changed"), Row.of(9L, "n9")))
        .on("id").whenMatchedUpdate().whenNotMatchedInsert().commit();
    t.append(3, 4);

    // The MERGE's insert of 9 is skipped with the rest of its commit, as in Spark.
    assertThat(ids(drain(source, Optional.of(afterSnapshot), ReadLimit.ALL))).containsExactly(3L);
  }

  @Test
  void readChangeFeedGivesChangeRowsAfterTheInitialSnapshot() {
    t.table.create(DeltaSourceFixture.SCHEMA).enableChangeDataFeed().commit();
    long v1 = t.append(0, 3);
    Source source = t.source(Map.of("readChangeFeed", "true"));
    assertThat(source.schema().fieldNames()).containsExactly("id", "name", "_change_type", "_commit_version",
        "_commit_timestamp");
    List<Planned> snapshot = drain(source, Optional.empty(), ReadLimit.ALL);
    Snapshot s1 = t.table.snapshotAt(v1);
    assertThat(snapshot.get(0).batch().rows()).extracting(Row::toArray).containsExactlyInAnyOrder(
        new Object[] {0L, "n0", "insert", v1, s1.timestamp()}, new Object[] {1L, "n1", "insert", v1, s1.timestamp()},
        new Object[] {2L, "n2", "insert", v1, s1.timestamp()});

    long merge = t.table.newMerge().source(DeltaSourceFixture.SCHEMA, List.of(Row.of(1L, "changed"), Row.of(7L, "n7")))
        .on("id").whenMatchedUpdate().whenNotMatchedInsert().commit().version();
    long delete = t.table.newDelete().where(Predicate.eq("id", 0L)).commit().version();
    List<Planned> changes = drain(source, Optional.of(endOf(snapshot)), ReadLimit.ALL);

    assertThat(changes.stream().flatMap(p -> p.batch().rows().stream())
        .map(r -> r.get(3) + ":" + r.get(0) + ":" + r.get(1) + ":" + r.get(2)).sorted().toList())
        .containsExactly(
            merge + ":1:changed:update_postimage", merge + ":1:n1:update_preimage", merge + ":7:n7:insert",
            delete + ":0:n0:delete");
    assertThat(changes.get(0).batch().rows().get(0).get(4)).isInstanceOf(Instant.class);
  }

  /** The columns option reads only the named columns, in table order, from snapshot files and change rows alike. */
  @Test
  void theColumnsOptionReadsOnlyTheNamedColumnsOfSnapshotsAndChanges() {
    t.table.create(DeltaSourceFixture.SCHEMA).enableChangeDataFeed().commit();
    long v1 = t.append(0, 3);
    for (Map<String, String> options : List.of(Map.of("readChangeFeed", "true", "columns", "NAME"),
        Map.of("readChangeFeed", "true", "columns", "name", "rereadFiles", "true"))) {
      Source source = t.source(options);
      assertThat(source.schema().fieldNames()).as("%s", options)
          .containsExactly("name", "_change_type", "_commit_version", "_commit_timestamp");
      List<Planned> snapshot = drain(source, Optional.empty(), ReadLimit.ALL);
      assertThat(snapshot.get(0).batch().rows()).as("%s", options).extracting(r -> r.get(0) + ":" + r.get(1))
          .containsExactlyInAnyOrder("n0:insert", "n1:insert", "n2:insert");
      assertThat(snapshot.get(0).batch().rows()).allSatisfy(r -> assertThat(r.size()).isEqualTo(4));
      assertThat(snapshot.get(0).batch().rows().get(0).get(2)).isEqualTo(v1);
    }
    Source source = t.source(Map.of("readChangeFeed", "true", "columns", "name"));
    SourceOffset afterSnapshot = endOf(drain(source, Optional.empty(), ReadLimit.ALL));
    long merge = t.table.newMerge().source(DeltaSourceFixture.SCHEMA, List.of(Row.of(1L, "changed"), Row.of(7L, "n7")))
        .on("id").whenMatchedUpdate().whenNotMatchedInsert().commit().version();
    long delete = t.table.newDelete().where(Predicate.eq("id", 0L)).commit().version();
    long append = t.append(10, 11);

    List<Planned> changes = drain(source, Optional.of(afterSnapshot), ReadLimit.ALL);
    assertThat(changes.stream().flatMap(p -> p.batch().rows().stream())
        .map(r -> r.get(2) + ":" + r.get(0) + ":" + r.get(1)).sorted().toList())
        .containsExactly(merge + ":changed:update_postimage", merge + ":n1:update_preimage", merge + ":n7:insert",
            delete + ":n0:delete", append + ":n10:insert");
    assertThat(changes.stream().flatMap(p -> p.batch().rows().stream()))
        .allSatisfy(r -> assertThat(r.size()).isEqualTo(4));
  }

  @Test
  void theColumnsOptionReadsOnlyTheNamedColumnsOfAppends() {
    t.table.create(DeltaSourceFixture.SCHEMA).commit();
    t.append(0, 2);
    Source source = t.source(Map.of("columns", "id"));
    SourceOffset afterSnapshot = endOf(drain(source, Optional.empty(), ReadLimit.ALL));
    t.append(2, 4);

    List<Planned> next = drain(source, Optional.of(afterSnapshot), ReadLimit.ALL);
    assertThat(source.schema().fieldNames()).containsExactly("id");
    assertThat(next.stream().flatMap(p -> p.batch().rows().stream()).map(Row::toArray).toList())
        .containsExactly(new Object[] {2L}, new Object[] {3L});
  }

  @Test
  void theColumnsOptionNamingNoColumnOfTheTableFailsNamingIt() {
    t.table.create(DeltaSourceFixture.SCHEMA).commit();
    assertThatThrownBy(() -> t.source(Map.of("columns", "id,amount")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'amount'").hasMessageContaining("[id, name]");
    assertThatThrownBy(() -> t.source(Map.of("columns", "id,,name")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("columns");
  }

  @Test
  void anInsertOnlyMergeWritesNoChangeFilesAndTheChangeFeedReadsItsAddsAsInserts() {
    t.table.create(DeltaSourceFixture.SCHEMA).enableChangeDataFeed().commit();
    t.append(0, 2);
    Source source = t.source(Map.of("readChangeFeed", "true"));
    SourceOffset afterSnapshot = endOf(drain(source, Optional.empty(), ReadLimit.ALL));
    long merge = t.table.newMerge().source(DeltaSourceFixture.SCHEMA, List.of(Row.of(5L, "n5"), Row.of(6L, "n6")))
        .on("id").whenMatchedUpdate().whenNotMatchedInsert().commit().version();

    List<Action> actions = new DeltaLog(t.store, "silver/orders").readCommit(merge);
    assertThat(actions).noneMatch(a -> a instanceof AddCdcFile).anyMatch(a -> a instanceof AddFile);
    List<Planned> changes = drain(source, Optional.of(afterSnapshot), ReadLimit.ALL);
    assertThat(changes.stream().flatMap(p -> p.batch().rows().stream())
        .map(r -> r.get(3) + ":" + r.get(0) + ":" + r.get(1) + ":" + r.get(2)).sorted().toList())
        .containsExactly(merge + ":5:n5:insert", merge + ":6:n6:insert");
    try (var feed = t.table.changes(merge, merge).rows()) {
      assertThat(feed).toIterable().extracting(r -> r.get(2)).containsExactly("insert", "insert");
    }
  }

  @Test
  void changeFeedBatchesNeverSplitAVersion() {
    t.table.create(DeltaSourceFixture.SCHEMA).enableChangeDataFeed().commit();
    t.append(0, 3, true);
    t.append(3, 5, true);
    t.table.newDelete().where(Predicate.in("id", List.of(0L, 3L))).commit();

    List<Planned> batches = drain(t.source(Map.of("readChangeFeed", "true", "startingVersion", "1",
        "maxFilesPerTrigger", "1")), Optional.empty(), ReadLimit.ALL);

    assertThat(batches.get(0).batch().rows()).isEmpty();
    assertThat(batches.subList(1, batches.size()))
        .extracting(p -> p.batch().rows().stream().map(r -> r.get(3)).distinct().toList())
        .containsExactly(List.of(1L), List.of(2L), List.of(3L));
    assertThat(batches.get(1).ids()).containsExactlyInAnyOrder(0L, 1L, 2L);
  }

  @Test
  void changeFeedNeedsTheTableProperty() {
    t.table.create(DeltaSourceFixture.SCHEMA).commit();

    assertThatThrownBy(() -> t.source(Map.of("readChangeFeed", "true")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("DeltaSource[" + t.table.uri() + "]")
        .hasMessageContaining("delta.enableChangeDataFeed=true");
  }

  @Test
  void aCleanedLogFailsLoudlyNamingTheMissingVersion() throws Exception {
    t.table.create(DeltaSourceFixture.SCHEMA).commit();
    for (long i = 0; i < 12; i++) {
      t.append(i, i + 1);
    }
    Source source = t.source(Map.of("startingVersion", "2", "maxFilesPerTrigger", "1"));
    List<Planned> anchor = drain(source, Optional.empty(), new ReadLimit(1, Long.MAX_VALUE, Long.MAX_VALUE))
        .subList(0, 1);
    t.table.checkpoint();
    for (int v = 0; v < 6; v++) {
      Files.delete(dir.resolve("silver/orders/_delta_log/%020d.json".formatted(v)));
    }

    Source restarted = t.source(Map.of("startingVersion", "2"));
    assertThatThrownBy(() -> restarted.latestOffset(Optional.of(anchor.get(0).end()), ReadLimit.ALL))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("version 2 is needed but is no longer in the table's log (earliest available: ")
        .hasMessageContaining("new checkpoint");
    SourceOffset snapshotOfV1 = new SourceOffset(anchor.get(0).end().json()
        .replace("\"reservoirVersion\":2", "\"reservoirVersion\":1").replace("false", "true"));
    assertThatThrownBy(() -> restarted.getBatch(Optional.empty(), snapshotOfV1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("version 1 is needed but is no longer in the table's log");
  }

  @Test
  void anIncompatibleSchemaChangeFailsNamingTheVersion() {
    t.table.create(DeltaSourceFixture.SCHEMA).commit();
    t.append(0, 2);
    Source source = t.source(Map.of());
    SourceOffset afterSnapshot = endOf(drain(source, Optional.empty(), ReadLimit.ALL));
    long widened = t.changeSchema(DeltaSourceFixture.SCHEMA.add("note", PrimitiveType.STRING));
    t.table.newAppend().rows(List.of(Row.of(2L, "n2", "a note"))).commit();
    // Added columns are fine: the query keeps reading the columns it started with.
    List<Planned> afterWidening = drain(source, Optional.of(afterSnapshot), ReadLimit.ALL);
    assertThat(afterWidening.get(0).batch().rows()).extracting(Row::toArray).containsExactly(new Object[] {2L, "n2"});
    long changed = t.changeSchema(StructType.of(StructField.of("id", PrimitiveType.LONG, false),
        StructField.of("name", PrimitiveType.INTEGER)));

    assertThat(changed).isEqualTo(widened + 2);
    assertThatThrownBy(() -> source.latestOffset(Optional.of(afterSnapshot), ReadLimit.ALL))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the table's schema changed at version " + changed)
        .hasMessageContaining("column name changed type from string to integer")
        .hasMessageContaining("restart the query");
  }
}
