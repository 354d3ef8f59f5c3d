package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.internal.parquet.ParquetDataReader;
import dev.sluice.table.storage.LocalObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TargetFileSizeTest {
  private static final long TARGET = 64 << 10;

  @TempDir Path dir;
  LocalObjectStore store;
  Table table;

  @BeforeEach
  void setUp() {
    store = new LocalObjectStore(dir);
    table = Table.forPath(store, "silver/orders");
  }

  /** The table's files in the order they were written (part-00000, part-00001, ...). */
  private List<DataFile> filesInWriteOrder() {
    List<DataFile> files = new ArrayList<>(table.latestSnapshot().files());
    files.sort(Comparator.comparing(DataFile::key));
    return files;
  }

  private List<Row> rowsOf(DataFile file) {
    try (CloseableIterator<Row> it = ParquetDataReader.read(store, file.key(), file.size(), Orders.SCHEMA)) {
      return it.toList();
    }
  }

  @Test
  void oneAppendRollsOverToNewFilesAtTheTargetSizeKeepingRowOrderInEachFile() {
    table.create(Orders.SCHEMA).commit();
    List<Row> input = Orders.range(0, 30_000);

    CommitResult result = table.newAppend().rows(input.iterator()).targetFileSize(TARGET).commit();

    List<DataFile> files = filesInWriteOrder();
    assertThat(files).hasSizeGreaterThan(3);
    assertThat(result.metric("numFiles")).isEqualTo(files.size());
    List<Row> concatenated = new ArrayList<>();
    for (DataFile f : files) {
      List<Row> rows = rowsOf(f);
      assertThat(f.numRecords()).hasValue(rows.size());
      concatenated.addAll(rows);
    }
    assertThat(concatenated).containsExactlyElementsOf(input);
    // The size is measured before the open page is compressed; at 64 KiB that is the whole file (about 3:1 here).
    for (DataFile f : files.subList(0, files.size() - 1)) {
      assertThat(f.size()).isBetween(TARGET / 4, TARGET * 2);
    }
  }

  @Test
  void theTablesTargetFileSizePropertyAppliesUnlessTheWriteSetsASize() {
    table.create(Orders.SCHEMA).property("delta.targetFileSize", "64kb").commit();

    table.newAppend().rows(Orders.range(0, 30_000)).commit();
    int rolled = table.latestSnapshot().files().size();
    table.newAppend().rows(Orders.range(30_000, 60_000)).targetFileSize(Long.MAX_VALUE).commit();

    assertThat(rolled).isGreaterThan(3);
    assertThat(table.latestSnapshot().files()).hasSize(rolled + 1);
    assertThat(table.latestSnapshot().numRecords()).hasValue(60_000);
  }

  @Test
  void aTargetFileSizePropertyThatIsNotASizeKeepsTheDefaultAndLosesNothing() {
    table.create(Orders.SCHEMA).property("delta.targetFileSize", "lots").commit();

    table.newAppend().rows(Orders.range(0, 30_000)).commit();

    assertThat(table.latestSnapshot().files()).hasSize(1);
    assertThat(table.latestSnapshot().numRecords()).hasValue(30_000);
  }

  @Test
  void overwriteAndMergeRollFilesToo() {
    table.create(Orders.SCHEMA).commit();
    table.newOverwrite().rows(Orders.range(0, 30_000)).targetFileSize(TARGET).commit();
    int overwritten = table.latestSnapshot().files().size();

    table.newMerge().source(Orders.SCHEMA, Orders.range(20_000, 50_000)).on("id")
        .whenMatchedUpdate().whenNotMatchedInsert().targetFileSize(TARGET).commit();

    assertThat(overwritten).isGreaterThan(3);
    assertThat(table.latestSnapshot().files()).hasSizeGreaterThan(overwritten);
    assertThat(table.latestSnapshot().numRecords()).hasValue(50_000);
  }

  @Test
  void aTargetFileSizeThatIsNotPositiveIsRefused() {
    assertThatThrownBy(() -> table.newAppend().targetFileSize(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("The target file size is 0 bytes, but must be positive; 1 gives one row per file, "
            + "Long.MAX_VALUE one file per partition");
  }
}
