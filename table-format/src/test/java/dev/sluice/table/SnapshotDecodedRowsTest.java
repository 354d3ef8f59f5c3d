package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.DecodedRows;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotDecodedRowsTest {
  @TempDir Path dir;

  static List<Row> decoded(Snapshot snapshot, DataFile file) {
    Optional<CloseableIterator<DecodedRows>> runs = snapshot.decodedRowsOf(file);
    assertThat(runs).as("decoded runs of %s", file.logPath()).isPresent();
    List<Row> out = new ArrayList<>();
    try (CloseableIterator<DecodedRows> it = runs.get()) {
      while (it.hasNext()) {
        DecodedRows run = it.next();
        for (int i = 0; i < run.size(); i++) {
          out.add(run.row(i));
        }
      }
    }
    return out;
  }

  @Test
  void aFilesRowsDecodedColumnByColumnAreTheRowsItHolds() {
    Table table = Table.forPath(new LocalObjectStore(dir), "t");
    table.create(Orders.SCHEMA).commit();
    List<Row> rows = new ArrayList<>(Orders.range(0, 500));
    rows.add(Row.of("o-null", null, null, null, null, null));
    table.newAppend().rows(rows).commit();
    Snapshot snapshot = table.latestSnapshot();
    DataFile file = snapshot.files().get(0);

    List<Row> decoded = decoded(snapshot, file);

    assertThat(decoded).containsExactlyElementsOf(snapshot.rowsOf(file).toList());
    assertThat(decoded).containsExactlyElementsOf(rows);
  }

  @Test
  void aFileWithADeletionVectorDecodesWithoutTheRowsItDeletesInEveryRun() {
    Table table = Table.forPath(new LocalObjectStore(dir), "dv");
    table.create(Orders.SCHEMA).property("delta.enableDeletionVectors", "true").commit();
    // One file of two runs (a run holds at most 65,536 rows): deletions in the first, at the seam and in the second.
    table.newAppend().rows(Orders.range(0, 70_000).iterator()).commit(); // an iterator: one writer, one file
    table.newDelete().where(Predicate.in("id", List.of("o000002", "o065535", "o065536", "o069999"))).commit();
    Snapshot snapshot = table.latestSnapshot();
    DataFile file = snapshot.files().get(0);

    assertThat(file.deletionVectorJson()).isNotNull();
    List<Row> decoded = decoded(snapshot, file);
    assertThat(decoded).hasSize(69_996).containsExactlyElementsOf(snapshot.rowsOf(file).toList());
    assertThat(decoded.get(2).get(0)).isEqualTo("o000003");
    assertThat(decoded.get(65_534).get(0)).isEqualTo("o065537");
  }

  @Test
  void partitionedTablesAndColumnsWithoutADecodedFormAreLeftToTheRowReader() {
    StructType partitioned = Orders.SCHEMA.add("day", PrimitiveType.DATE);
    Table p = Table.forPath(new LocalObjectStore(dir), "p");
    p.create(partitioned).partitionBy("day").commit();
    p.newAppend().rows(List.of(Row.of("o1", "c1", Orders.T0, 1.5, "open", Orders.T0, LocalDate.of(2026, 11, 30))))
        .commit();
    StructType flagged = StructType.of(StructField.of("id", PrimitiveType.STRING), StructField.of("ok",
        PrimitiveType.BOOLEAN));
    Table b = Table.forPath(new LocalObjectStore(dir), "b");
    b.create(flagged).commit();
    b.newAppend().rows(List.of(Row.of("o1", true))).commit();

    assertThat(p.latestSnapshot().decodedRowsOf(p.latestSnapshot().files().get(0))).isEmpty();
    assertThat(b.latestSnapshot().decodedRowsOf(b.latestSnapshot().files().get(0))).isEmpty();
  }
}
