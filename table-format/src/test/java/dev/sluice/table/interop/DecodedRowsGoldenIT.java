package dev.sluice.table.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.DataFile;
import dev.sluice.table.Snapshot;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.DecodedRows;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every data file of every Spark-written golden table that the columnar reader takes decodes to the rows the row
 * reader reads: Spark's page versions, encodings, dictionaries and nulls, not only Sluice's own writer's.
 */
class DecodedRowsGoldenIT {
  @Test
  void sparkWrittenFilesDecodeColumnByColumnToTheRowsTheRowReaderReads() throws IOException {
    Path golden = GoldenTables.path("basic-decimal-table").getParent();
    int compared = 0;
    int rows = 0;
    List<Path> tables;
    try (Stream<Path> dirs = Files.list(golden)) {
      tables = dirs.filter(d -> Files.isDirectory(d.resolve("_delta_log"))).sorted().toList();
    }
    for (Path dir : tables) {
      Snapshot snapshot;
      try {
        snapshot = Table.forPath(new LocalObjectStore(golden), dir.getFileName().toString()).latestSnapshot();
      } catch (RuntimeException unreadable) {
        continue; // golden tables that test refusals (unknown features, damaged logs)
      }
      for (DataFile file : snapshot.files()) {
        Optional<CloseableIterator<DecodedRows>> runs = decodedOrEmpty(snapshot, file);
        if (runs.isEmpty()) {
          continue;
        }
        List<Row> decoded = new ArrayList<>();
        try (CloseableIterator<DecodedRows> it = runs.get()) {
          while (it.hasNext()) {
            DecodedRows run = it.next();
            for (int i = 0; i < run.size(); i++) {
              decoded.add(run.row(i));
            }
          }
        }
        List<Row> expected = snapshot.rowsOf(file).toList();
        assertThat(decoded).as("rows of %s in %s", file.logPath(), dir).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
          Row a = decoded.get(i);
          Row e = expected.get(i);
          assertThat(Row.equalValues(a, e)).as(() -> "row " + Arrays.deepToString(a.toArray()) + " vs "
              + Arrays.deepToString(e.toArray()) + " of " + file.logPath() + " in " + dir).isTrue();
        }
        compared++;
        rows += expected.size();
      }
    }
    assertThat(compared).as("files compared").isGreaterThan(20);
    assertThat(rows).as("rows compared").isGreaterThan(1_000);
  }

  /** A file's decoded runs, or empty when it isn't read so or can't be read at all (a golden table of bad files). */
  private static Optional<CloseableIterator<DecodedRows>> decodedOrEmpty(Snapshot snapshot, DataFile file) {
    try {
      snapshot.rowsOf(file).close();
    } catch (RuntimeException unreadable) {
      return Optional.empty();
    }
    return snapshot.decodedRowsOf(file);
  }
}
