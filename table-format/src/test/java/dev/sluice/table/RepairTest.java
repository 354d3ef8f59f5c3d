package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.exceptions.InvalidTableException;
import dev.sluice.table.storage.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RepairTest {
  @TempDir Path dir;
  Table table;

  @BeforeEach
  void threeAppends() {
    table = Table.forPath(new LocalObjectStore(dir), "bronze/orders");
    table.create(Orders.SCHEMA).commit();
    table.newAppend().rows(Orders.range(0, 10)).commit();
    table.newAppend().rows(Orders.range(10, 15)).commit();
    table.newAppend().rows(Orders.range(15, 18)).commit();
  }

  @Test
  void aMissingDataFileFailsTheReadNamingTheFileTheVersionAndTheFix() throws Exception {
    DataFile lost = deleteFileOfAppend(1);

    assertThatThrownBy(() -> TableWriteTest.rows(table)).isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("Data file " + lost.logPath() + " of the table " + table.uri())
        .hasMessageContaining("does not exist, but version 3 of the table references it")
        .hasMessageContaining("Restore the file, or remove the missing files from the table with `sluice fsck ")
        .hasMessageContaining("Table.newRepair()");
  }

  @Test
  void aDryRunListsTheMissingFilesAndCommitsNothing() throws Exception {
    DataFile lost = deleteFileOfAppend(2);

    Repair.Result r = table.newRepair().dryRun(true).execute();

    assertThat(r.dryRun()).isTrue();
    assertThat(r.readVersion()).isEqualTo(3);
    assertThat(r.committedVersion()).isEmpty();
    assertThat(r.missingFiles()).extracting(DataFile::logPath).containsExactly(lost.logPath());
    assertThat(r.missingRows()).hasValue(5);
    assertThat(table.latestVersion()).hasValue(3);
  }

  @Test
  void aRepairRemovesTheMissingFilesSoTheTableReadsAgainWithoutTheirRows() throws Exception {
    DataFile lost = deleteFileOfAppend(2);

    Repair.Result r = table.newRepair().execute();

    assertThat(r.dryRun()).isFalse();
    assertThat(r.committedVersion()).isEqualTo(OptionalLong.of(4));
    assertThat(r.missingFiles()).extracting(DataFile::logPath).containsExactly(lost.logPath());
    assertThat(r.missingRows()).hasValue(5);
    var rows = new java.util.ArrayList<>(Orders.range(0, 10));
    rows.addAll(Orders.range(15, 18));
    assertThat(TableWriteTest.rows(table)).containsExactlyElementsOf(rows);
    HistoryEntry commit = table.history(1).get(0);
    assertThat(commit.operation()).isEqualTo("FSCK");
    assertThat(commit.operationMetrics()).containsEntry("numRemovedFiles", "1").containsEntry("numMissingRows", "5");

    Repair.Result again = table.newRepair().execute();
    assertThat(again.missingFiles()).isEmpty();
    assertThat(again.committedVersion()).isEmpty();
    assertThat(table.latestVersion()).hasValue(4);
  }

  /** Deletes the data file the {@code n}th append (version n) wrote, as a person or a lifecycle rule might. */
  private DataFile deleteFileOfAppend(long version) throws Exception {
    DataFile file = table.snapshotAt(version).files().stream()
        .filter(f -> table.snapshotAt(version - 1).files().stream().noneMatch(o -> o.key().equals(f.key())))
        .findFirst().orElseThrow();
    Files.delete(dir.resolve(file.key()));
    return file;
  }
}
