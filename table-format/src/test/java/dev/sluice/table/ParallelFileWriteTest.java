package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.SchemaMismatchException;
import dev.sluice.table.internal.parquet.ParquetDataReader;
import dev.sluice.table.internal.write.ParallelFileWrite;
import dev.sluice.table.storage.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A large in-memory append is written as one file per core at once, and reads back as if written row by row. */
class ParallelFileWriteTest {
  private static final int ROWS = 3 * ParallelFileWrite.MIN_ROWS_PER_SLICE;

  @TempDir Path dir;
  LocalObjectStore store;
  Table table;

  @BeforeEach
  void setUp() {
    store = new LocalObjectStore(dir);
    table = Table.forPath(store, "bronze/orders");
    table.create(Orders.SCHEMA).commit();
  }

  @Test
  void aBatchIsSplitOnlyWhenEverySliceGetsEnoughRows() {
    assertThat(ParallelFileWrite.slices(ParallelFileWrite.MIN_ROWS_PER_SLICE * 2 - 1, 2)).isEqualTo(1);
    assertThat(ParallelFileWrite.slices(ParallelFileWrite.MIN_ROWS_PER_SLICE * 2, 2)).isEqualTo(2);
    assertThat(ParallelFileWrite.slices(ParallelFileWrite.MIN_ROWS_PER_SLICE * 10, 4)).isEqualTo(4);
    assertThat(ParallelFileWrite.slices(10, 8)).isEqualTo(1);
  }

  @Test
  void aLargeListIsWrittenAsOneFilePerSliceInRowOrder() {
    List<Row> input = Orders.range(0, ROWS);

    CommitResult result = table.newAppend().rows(input).commit();

    List<DataFile> files = new ArrayList<>(table.latestSnapshot().files());
    files.sort(Comparator.comparing(DataFile::key)); // names sort in row order, slice by slice
    int slices = ParallelFileWrite.slices(ROWS);
    assertThat(files).hasSize(slices);
    assertThat(result.metric("numFiles")).isEqualTo(slices);
    assertThat(result.metric("numOutputRows")).isEqualTo(ROWS);
    List<Row> read = new ArrayList<>();
    for (DataFile f : files) {
      try (CloseableIterator<Row> it = ParquetDataReader.read(store, f.key(), f.size(), Orders.SCHEMA)) {
        List<Row> rows = it.toList();
        assertThat(f.numRecords()).hasValue(rows.size());
        read.addAll(rows);
      }
    }
    assertThat(read).containsExactlyElementsOf(input);
    try (CloseableIterator<Row> it = table.latestSnapshot().scan().build().rows()) {
      assertThat(it.toList()).containsExactlyElementsOf(input); // a scan reads the files in log order
    }
  }

  @Test
  void aBadRowInAnySliceFailsTheWholeAppendAndLeavesNoFile() throws IOException {
    List<Row> input = new ArrayList<>(Orders.range(0, ROWS));
    Row good = input.get(ROWS - 10);
    Object[] bad = good.toArray();
    bad[0] = 42; // order_id is a string column
    input.set(ROWS - 10, Row.of(bad)); // in the last slice, written on another thread

    assertThatThrownBy(() -> table.newAppend().rows(input).commit()).isInstanceOf(SchemaMismatchException.class);

    assertThat(table.latestSnapshot().version()).isZero();
    try (Stream<Path> files = Files.walk(dir)) {
      assertThat(files.filter(p -> p.toString().endsWith(".parquet"))).isEmpty();
    }
  }
}
