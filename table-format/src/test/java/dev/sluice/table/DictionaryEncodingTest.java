package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.internal.parquet.ParquetDataReader;
import dev.sluice.table.storage.LocalObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Appends remember which columns gave up their dictionary; the files hold the same rows either way. */
class DictionaryEncodingTest {
  private static final int ROWS = 30_000;

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
  void uniqueColumnsAreWrittenPlainInEveryFileAndRepeatingOnesKeepTheirDictionary() {
    List<Row> written = new ArrayList<>();
    List<DataFile> files = new ArrayList<>();
    for (int batch = 0; batch < 3; batch++) {
      List<Row> rows = Orders.range(batch * ROWS, (batch + 1) * ROWS);
      files.add(append(rows));
      written.addAll(rows);
    }

    for (DataFile f : files) {
      Map<String, Boolean> dictionaries = dictionaryPages(f);
      assertThat(dictionaries).containsEntry("id", false).containsEntry("ts", false)
          .containsEntry("customer", true).containsEntry("status", true);
    }
    assertThat(rows(files)).containsExactlyElementsOf(written);
  }

  @Test
  void aColumnWhoseValuesStartToRepeatGetsItsDictionaryBack() {
    DataFile unique = append(Orders.range(0, ROWS));
    List<Row> repeating = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      repeating.add(Orders.order(i % 10, "open", 1.0, 0));
    }
    DataFile last = null;
    for (int batch = 0; batch < 16; batch++) {
      last = append(repeating);
    }

    assertThat(dictionaryPages(unique)).containsEntry("id", false);
    assertThat(dictionaryPages(last)).containsEntry("id", true);
    assertThat(table.latestSnapshot().numRecords()).hasValue(17L * ROWS);
  }

  /** Appends the rows (one file) and returns the file. */
  private DataFile append(List<Row> rows) {
    Set<String> before = new HashSet<>();
    table.latestSnapshot().files().forEach(f -> before.add(f.key()));
    table.newAppend().rows(rows.iterator()).commit();
    List<DataFile> added = table.latestSnapshot().files().stream().filter(f -> !before.contains(f.key())).toList();
    assertThat(added).hasSize(1);
    return added.get(0);
  }

  private List<Row> rows(List<DataFile> files) {
    List<Row> out = new ArrayList<>();
    for (DataFile f : files) {
      try (CloseableIterator<Row> it = ParquetDataReader.read(store, f.key(), f.size(), Orders.SCHEMA)) {
        it.forEachRemaining(out::add);
      }
    }
    return out;
  }

  /** Per column of the file's first row group: whether it has a dictionary page. */
  private Map<String, Boolean> dictionaryPages(DataFile f) {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(dir.resolve(f.key())))) {
      Map<String, Boolean> out = new LinkedHashMap<>();
      for (ColumnChunkMetaData c : reader.getRowGroups().get(0).getColumns()) {
        out.put(c.getPath().toDotString(), c.hasDictionaryPage());
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
