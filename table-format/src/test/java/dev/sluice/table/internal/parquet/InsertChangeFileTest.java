package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InsertChangeFileTest {
  @TempDir Path dir;
  ObjectStore store;

  @BeforeEach
  void setUp() {
    store = new LocalObjectStore(dir);
  }

  private static List<Row> rows(int n) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(ParquetRoundTripTest.fullRow(i % 500));
    }
    rows.add(ParquetRoundTripTest.nullRow());
    return rows;
  }

  private static Row withInsert(Row row) {
    Object[] values = Arrays.copyOf(row.toArray(), row.size() + 1);
    values[row.size()] = "insert";
    return Row.of(values);
  }

  @Test
  void theChangeFileHoldsEveryRowOfEveryRowGroupMarkedInsert() throws Exception {
    List<Row> rows = rows(3000);
    // Small row groups and pages: the copy must carry several of each, with their indexes.
    ParquetWriteOptions options = ParquetWriteOptions.defaults().withRowGroupSize(64 << 10);
    WrittenFile data = ParquetDataWriter.write(store, "t/part-0.parquet", ParquetRoundTripTest.ALL_TYPES,
        rows.iterator(), options);

    WrittenFile change = InsertChangeFile.write(store, data.key(), data.size(), ParquetRoundTripTest.ALL_TYPES,
        "_change_type", "t/_change_data/cdc-0.parquet", options);

    StructType changeSchema = ParquetRoundTripTest.ALL_TYPES.add("_change_type", PrimitiveType.STRING);
    assertThat(change.numRecords()).isEqualTo(rows.size());
    assertThat(change.size()).isEqualTo(store.status(change.key()).orElseThrow().size());
    assertThat(ParquetDataReader.read(store, change.key(), change.size(), changeSchema).toList())
        .containsExactlyElementsOf(rows.stream().map(InsertChangeFileTest::withInsert).toList());
    try (ParquetFileReader copy = ParquetFileReader.open(new StoreInputFile(store, change.key(), change.size()));
        ParquetFileReader original = ParquetFileReader.open(new StoreInputFile(store, data.key(), data.size()))) {
      assertThat(original.getRowGroups()).hasSizeGreaterThan(1);
      assertThat(copy.getRowGroups()).hasSameSizeAs(original.getRowGroups());
      for (int g = 0; g < copy.getRowGroups().size(); g++) {
        var copied = copy.getRowGroups().get(g).getColumns();
        var first = copy.readOffsetIndex(copied.get(0));
        assertThat(first.getPageCount())
            .isEqualTo(original.readOffsetIndex(original.getRowGroups().get(g).getColumns().get(0)).getPageCount());
        // The offset index points at the copied pages: the first page starts where the chunk does.
        assertThat(first.getOffset(0)).isEqualTo(copied.get(0).getStartingPos());
        assertThat(copy.readColumnIndex(copied.get(copied.size() - 1))).isNotNull();
      }
    }
  }

  @Test
  void aFileOfOtherColumnsFailsAndLeavesNothing() {
    StructType other = StructType.empty().add("x", PrimitiveType.LONG);
    WrittenFile data = ParquetDataWriter.write(store, "t/part-1.parquet", other, List.of(Row.of(1L)).iterator(),
        ParquetWriteOptions.defaults());

    assertThatThrownBy(() -> InsertChangeFile.write(store, data.key(), data.size(), ParquetRoundTripTest.ALL_TYPES,
        "_change_type", "t/_change_data/cdc-1.parquet", ParquetWriteOptions.defaults()))
        .isInstanceOf(StorageException.class).hasMessageContaining("does not have the columns");
    assertThat(store.status("t/_change_data/cdc-1.parquet")).isEmpty();
  }
}
