package dev.sluice.ingestion.source.internal.delta;

import static dev.sluice.ingestion.source.internal.delta.DeltaSourceFixture.drain;
import static dev.sluice.ingestion.source.internal.delta.DeltaSourceFixture.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.ingestion.source.internal.delta.DeltaSourceFixture.Planned;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.storage.LocalObjectStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaSourceTest {
  @TempDir Path dir;
  DeltaSourceFixture t;

  @BeforeEach
  void setUp() {
    t = new DeltaSourceFixture(new LocalObjectStore(dir), "bronze/orders");
    t.table.create(DeltaSourceFixture.SCHEMA).commit();
  }

  private static List<Long> range(long from, long to) {
    return LongStream.range(from, to).boxed().toList();
  }

  /** A batch of files of several runs each holds every row as written, each file's in order. */
  @Test
  void aBatchOfLargeFilesHoldsEveryRowOnceFileByFile() {
    for (long from = 0; from < 300_000; from += 100_000) {
      List<dev.sluice.table.data.Row> rows = new java.util.ArrayList<>();
      for (long id = from; id < from + 100_000; id++) {
        rows.add(dev.sluice.table.data.Row.of(id, name(id)));
      }
      t.table.newAppend().rows(rows).commit();
    }
    assertThat(t.table.latestSnapshot().files().stream().mapToLong(dev.sluice.table.DataFile::size).sum())
        .isGreaterThan(1L << 20);
    List<Planned> batches = drain(t.source(Map.of()), Optional.empty(), ReadLimit.ALL);
    assertThat(batches).hasSize(1);
    java.util.BitSet seen = new java.util.BitSet();
    // The first row always starts a run: with -1 before it, a first row of id 0 would count as continuing one.
    long previous = Long.MIN_VALUE;
    int ascendingRuns = 0;
    for (dev.sluice.table.data.Row r : batches.get(0).batch().rows()) {
      long id = (Long) r.get(0);
      assertThat(r.get(1)).as("row %d", id).isEqualTo(name(id));
      assertThat(seen.get((int) id)).as("row %d twice", id).isFalse();
      seen.set((int) id);
      ascendingRuns += id == previous + 1 ? 0 : 1;
      previous = id;
    }
    assertThat(seen.cardinality()).isEqualTo(300_000);
    // Each file's rows in their order, the files one after the other (files of consecutive ids make one run).
    assertThat(ascendingRuns).isBetween(1, t.table.latestSnapshot().files().size());
  }

  /** Sixteen hex digits that don't repeat or compress: the files stay large. */
  private static String name(long id) {
    long h = id * 0x9E3779B97F4A7C15L;
    return Long.toHexString(h ^ (h >>> 29) | 1L << 63);
  }

  @Test
  void readsTheInitialSnapshotThenNewCommits() {
    t.append(0, 3);
    t.append(3, 5);
    Source source = t.source(Map.of());

    assertThat(source.schema()).isEqualTo(DeltaSourceFixture.SCHEMA);
    assertThat(source.description()).isEqualTo("DeltaSource[" + t.table.uri() + "]");
    List<Planned> first = drain(source, Optional.empty(), ReadLimit.ALL);
    assertThat(first).hasSize(1);
    assertThat(first.get(0).ids()).containsExactlyInAnyOrderElementsOf(range(0, 5));
    assertThat(first.get(0).end().json())
        .isEqualTo("{\"sourceVersion\":1,\"reservoirId\":\"" + t.table.latestSnapshot().tableId()
            + "\",\"reservoirVersion\":3,\"index\":-1,\"isStartingVersion\":false}");

    t.append(5, 7);
    t.append(7, 8);
    List<Planned> next = drain(source, Optional.of(first.get(0).end()), ReadLimit.ALL);
    assertThat(next).hasSize(1);
    assertThat(next.get(0).ids()).containsExactly(5L, 6L, 7L);
    assertThat(source.latestOffset(Optional.of(next.get(0).end()), ReadLimit.ALL)).isEmpty();
  }

  @Test
  void maxFilesPerTriggerSplitsTheSnapshotAndAVersionByIndex() {
    t.append(0, 3, true);
    t.append(3, 5, true);
    assertThat(t.table.latestSnapshot().files()).hasSize(5);
    Source source = t.source(Map.of("maxFilesPerTrigger", "2"));

    List<Planned> snapshot = drain(source, Optional.empty(), ReadLimit.ALL);
    // The first batch never leaves the snapshot; later ones continue it.
    assertThat(snapshot).extracting(p -> p.ids().size()).containsExactly(2, 2, 1);
    assertThat(ids(snapshot)).containsExactlyInAnyOrderElementsOf(range(0, 5));
    assertThat(snapshot.get(0).end().json()).contains("\"reservoirVersion\":2,\"index\":1,\"isStartingVersion\":true");

    long v = t.append(5, 8, true);
    SourceOffset last = snapshot.get(2).end();
    List<Planned> next = drain(source, Optional.of(last), ReadLimit.ALL);
    assertThat(next).extracting(Planned::ids).containsExactly(List.of(5L, 6L), List.of(7L));
    assertThat(next.get(0).end().json()).contains("\"reservoirVersion\":" + v + ",\"index\":1,\"isStartingVersion\":false");
    assertThat(next.get(1).end().json()).contains("\"reservoirVersion\":" + (v + 1) + ",\"index\":-1");

    // The runner's limit applies when it is stricter than the option.
    List<Planned> strict = drain(t.source(Map.of("maxFilesPerTrigger", "2")), Optional.of(last), new ReadLimit(1, Long.MAX_VALUE, Long.MAX_VALUE));
    assertThat(strict).extracting(Planned::ids).containsExactly(List.of(5L), List.of(6L), List.of(7L));
  }

  @Test
  void maxBytesPerTriggerIsASoftLimitThatAlwaysTakesOneFile() {
    t.append(0, 4, true);
    List<Planned> batches = drain(t.source(Map.of("startingVersion", "0", "maxBytesPerTrigger", "1")), Optional.empty(),
        ReadLimit.ALL);

    assertThat(batches.get(0).ids()).isEmpty();
    assertThat(batches.subList(1, batches.size())).extracting(p -> p.ids().size()).containsExactly(1, 1, 1, 1);
  }

  @Test
  void aNewSourceOnLoggedOffsetsReturnsTheSameBatches() {
    t.append(0, 3, true);
    t.append(3, 4);
    Source first = t.source(Map.of("maxFilesPerTrigger", "2"));
    List<Planned> planned = new java.util.ArrayList<>(drain(first, Optional.empty(), ReadLimit.ALL));
    t.append(4, 7, true);
    t.append(7, 8);
    planned.addAll(drain(first, Optional.of(planned.get(planned.size() - 1).end()), ReadLimit.ALL));
    assertThat(ids(planned)).containsExactlyInAnyOrderElementsOf(range(0, 8));
    t.append(8, 9); // the restarted source sees a newer latest version; old batches must not change

    Source restarted = t.source(Map.of("maxFilesPerTrigger", "2"));
    for (Planned p : planned) {
      assertThat(restarted.getBatch(p.start(), p.end()).rows()).containsExactlyElementsOf(p.batch().rows());
    }
  }

  @Test
  void startingVersionReadsChangesFromThatVersionWithoutASnapshot() {
    t.append(0, 2);
    long v2 = t.append(2, 4);
    t.append(4, 6);

    List<Planned> batches = drain(t.source(Map.of("startingVersion", Long.toString(v2))), Optional.empty(), ReadLimit.ALL);

    assertThat(batches.get(0).ids()).isEmpty();
    assertThat(batches.get(0).end().json()).contains("\"reservoirVersion\":" + v2 + ",\"index\":-1,\"isStartingVersion\":false");
    assertThat(ids(batches)).containsExactly(2L, 3L, 4L, 5L);
    assertThatThrownBy(() -> t.source(Map.of("startingVersion", "99")).latestOffset(Optional.empty(), ReadLimit.ALL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("startingVersion 99 is after the table's latest version 3");
  }

  @Test
  void startingVersionLatestReadsOnlyNewCommitsEvenAfterARestart() {
    t.append(0, 2);
    Source source = t.source(Map.of("startingVersion", "latest"));
    List<Planned> anchor = drain(source, Optional.empty(), ReadLimit.ALL);
    assertThat(ids(anchor)).isEmpty();
    t.append(2, 4);
    // A restart re-reads batch 0 from its offsets; "latest" is not resolved again.
    assertThat(t.source(Map.of("startingVersion", "latest")).getBatch(Optional.empty(), anchor.get(0).end()).rows()).isEmpty();

    assertThat(ids(drain(source, Optional.of(anchor.get(anchor.size() - 1).end()), ReadLimit.ALL))).containsExactly(2L, 3L);
  }

  @Test
  void startingTimestampStartsAtTheFirstCommitAtOrAfterIt() throws Exception {
    t.append(0, 2);
    t.append(2, 4);
    t.append(4, 6);
    for (int v = 0; v <= 3; v++) {
      java.nio.file.Files.setLastModifiedTime(dir.resolve("bronze/orders/_delta_log/%020d.json".formatted(v)),
          java.nio.file.attribute.FileTime.fromMillis(1_000_000L * (v + 1)));
    }

    assertThat(ids(drain(t.source(Map.of("startingTimestamp", java.time.Instant.ofEpochMilli(2_500_000).toString())),
        Optional.empty(), ReadLimit.ALL))).containsExactly(2L, 3L, 4L, 5L);
    assertThat(ids(drain(t.source(Map.of("startingTimestamp", java.time.Instant.ofEpochMilli(3_000_000).toString())),
        Optional.empty(), ReadLimit.ALL))).containsExactly(2L, 3L, 4L, 5L);
    assertThat(ids(drain(t.source(Map.of("startingTimestamp", "1970-01-01T00:58:20Z")), Optional.empty(),
        ReadLimit.ALL))).containsExactly(4L, 5L);
    Source afterLatest = t.source(Map.of("startingTimestamp", "2000-01-01"));
    List<Planned> none = drain(afterLatest, Optional.empty(), ReadLimit.ALL);
    assertThat(ids(none)).isEmpty();
    t.append(6, 7);
    assertThat(ids(drain(afterLatest, Optional.of(none.get(none.size() - 1).end()), ReadLimit.ALL))).containsExactly(6L);
  }

  @Test
  void availableNowFixesTheEndAtPreparation() {
    t.append(0, 2);
    Source source = t.source(Map.of());
    source.prepareForAvailableNow();
    t.append(2, 4);

    List<Planned> batches = drain(source, Optional.empty(), ReadLimit.ALL);

    assertThat(ids(batches)).containsExactlyInAnyOrder(0L, 1L);
    assertThat(source.latestOffset(Optional.of(batches.get(batches.size() - 1).end()), ReadLimit.ALL)).isEmpty();
    Source later = t.source(Map.of());
    assertThat(ids(drain(later, Optional.of(batches.get(batches.size() - 1).end()), ReadLimit.ALL))).containsExactly(2L, 3L);
  }

  @Test
  void rereadFilesReadsASnapshotBatchFromItsFilesOnEveryPassWithTheSameRows() {
    DeltaSourceFixture dv = new DeltaSourceFixture(t.store, "silver/orders");
    dv.table.create(DeltaSourceFixture.SCHEMA).property("delta.enableDeletionVectors", "true").commit();
    dv.append(0, 6);
    dv.append(6, 9, true);
    dv.table.newDelete().where(Predicate.eq("id", 4L)).commit(); // a deletion vector on the first file
    Map<String, String> options = Map.of("maxFilesPerTrigger", "3");

    List<Planned> copied = drain(dv.source(options), Optional.empty(), ReadLimit.ALL);
    Source rereading = dv.source(Map.of("maxFilesPerTrigger", "3", "rereadFiles", "true"));
    List<Planned> reread = drain(rereading, Optional.empty(), ReadLimit.ALL);

    assertThat(reread).extracting(Planned::end).containsExactlyElementsOf(copied.stream().map(Planned::end).toList());
    assertThat(ids(reread)).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 5L, 6L, 7L, 8L);
    for (int i = 0; i < reread.size(); i++) {
      Batch batch = reread.get(i).batch();
      assertThat(batch.spilled()).as("batch %d not copied into the heap", i).isTrue();
      assertThat(batch.size()).isEqualTo(copied.get(i).batch().size());
      assertThat(batch.rows()).containsExactlyElementsOf(copied.get(i).batch().rows());
      assertThat(batch.rows()).as("a second pass").containsExactlyElementsOf(copied.get(i).batch().rows());
      assertThat(batch.rows().get(batch.size() - 1)).isEqualTo(copied.get(i).batch().rows().get(batch.size() - 1));
    }
    // After the snapshot, commits are copied as usual.
    dv.append(9, 11);
    List<Planned> next = drain(rereading, Optional.of(reread.get(reread.size() - 1).end()), ReadLimit.ALL);
    assertThat(next).extracting(Planned::ids).containsExactly(List.of(9L, 10L));
    assertThat(next.get(0).batch().spilled()).isFalse();
  }

  @Test
  void anOffsetOfAnotherTableIsRefused() {
    t.append(0, 2);
    SourceOffset offset = t.source(Map.of()).latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    DeltaSourceFixture other = new DeltaSourceFixture(t.store, "bronze/other");
    other.table.create(DeltaSourceFixture.SCHEMA).commit();
    Source source = other.source(Map.of());
    String expected = "the checkpoint's offsets are for table id " + t.table.latestSnapshot().tableId()
        + " but the table now has id " + other.table.latestSnapshot().tableId();

    assertThatThrownBy(() -> source.latestOffset(Optional.of(offset), ReadLimit.ALL))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining(expected).hasMessageContaining("new checkpoint");
    assertThatThrownBy(() -> source.getBatch(Optional.empty(), offset))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining(expected);
    assertThatThrownBy(() -> source.getBatch(Optional.empty(), new SourceOffset("{\"index\":1}")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lacks reservoirId");
  }
}
