package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotRowsOfTest {
  @TempDir Path dir;

  @Test
  void readsAFileThatIsNoLongerLive() {
    Table table = Table.forPath(new LocalObjectStore(dir), "t");
    table.create(Orders.SCHEMA).commit();
    table.newAppend().rows(Orders.range(0, 3)).commit();
    DataFile old = table.latestSnapshot().files().get(0);
    table.newOverwrite().rows(Orders.range(10, 12)).commit();
    Snapshot latest = table.latestSnapshot();

    assertThat(latest.files()).extracting(DataFile::logPath).doesNotContain(old.logPath());
    try (CloseableIterator<Row> rows = latest.rowsOf(old)) {
      assertThat(rows.toList()).containsExactlyElementsOf(Orders.range(0, 3));
    }
  }

  @Test
  void fillsPartitionColumnsAndNullsForColumnsTheFileLacks() {
    StructType schema = Orders.SCHEMA.add("day", PrimitiveType.DATE);
    Table table = Table.forPath(new LocalObjectStore(dir), "p");
    table.create(schema).partitionBy("day").commit();
    Row row = Row.of("o1", "c1", Orders.T0, 1.5, "open", Orders.T0, LocalDate.of(2026, 11, 30));
    table.newAppend().rows(List.of(row)).commit();
    DataFile file = table.latestSnapshot().files().get(0);
    table.newAppend().schema(schema.add("note", PrimitiveType.STRING)).mergeSchema(true)
        .rows(List.of(Row.of("o2", "c1", Orders.T0, 2.5, "open", Orders.T0, LocalDate.of(2026, 12, 1), "n"))).commit();

    List<Row> rows = table.latestSnapshot().rowsOf(file).toList();

    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).size()).isEqualTo(8);
    assertThat(rows.get(0).get(6)).isEqualTo(LocalDate.of(2026, 11, 30));
    assertThat(rows.get(0).get(7)).isNull();
    assertThat(rows.get(0).get(0)).isEqualTo("o1");
  }
}
