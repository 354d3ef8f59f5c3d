package dev.sluice.table.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.InvalidTableException;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.storage.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables with deletion vectors, as Spark 3.5 writes them: the deleted rows stay deleted through log replay
 * (one data file with three successive DVs), a checkpoint Sluice writes, and a DELETE Sluice commits (copy-on-write
 * of a file that has a DV) — and Delta Kernel reads the same rows.
 */
class DeletionVectorReadIT {
  @TempDir Path dir;

  @Test
  void successiveDeletionVectorsOfOneFileLeaveOutEveryDeletedRow() throws IOException {
    Path copy = copyOf("log-replay-dv-key-cases");
    Table table = Table.forPath(new LocalObjectStore(dir), copy.getFileName().toString());
    // DELETE id = 0, then 7, then 14: each commit replaces the file's DV (remove(path, dv n-1) + add(path, dv n))
    assertThat(ids(table)).isEqualTo(expectedWithout(0, 7, 14));
    assertThat(table.latestSnapshot().numRecords()).hasValue(47);
    assertThat(table.snapshotAt(1).scan().build().rows().toList()).hasSize(49);
    assertThat(KernelInteropIT.kernelRows(copy.toString(), KernelReader.localConf())).hasSize(47);
  }

  @Test
  void aCheckpointKeepsTheDeletionVectors() throws IOException {
    Path copy = copyOf("log-replay-dv-key-cases");
    Table.forPath(new LocalObjectStore(dir), copy.getFileName().toString()).checkpoint();
    deleteCommitJsonBelowCheckpoint(copy);
    Table reopened = Table.forPath(new LocalObjectStore(dir), copy.getFileName().toString());
    assertThat(ids(reopened)).isEqualTo(expectedWithout(0, 7, 14));
    assertThat(KernelInteropIT.kernelRows(copy.toString(), KernelReader.localConf())).hasSize(47);
  }

  @Test
  void aDeleteRewritesTheFileWithoutItsDeletedRowsAndRemovesItWithItsDeletionVector() throws IOException {
    Path copy = copyOf("log-replay-dv-key-cases");
    Table table = Table.forPath(new LocalObjectStore(dir), copy.getFileName().toString());
    table.newDelete().where(Predicate.eq("id", 1L)).commit();
    assertThat(ids(table)).isEqualTo(expectedWithout(0, 1, 7, 14));
    String commit = Files.readString(copy.resolve("_delta_log/00000000000000000004.json"));
    assertThat(commit.lines().filter(l -> l.startsWith("{\"remove\""))).singleElement().asString()
        .contains("\"deletionVector\":{\"storageType\":\"u\"").contains("\"cardinality\":3");
    assertThat(KernelInteropIT.kernelRows(copy.toString(), KernelReader.localConf())).hasSize(46);
  }

  @Test
  void aDamagedDeletionVectorFileFailsTheReadNamingIt() throws IOException {
    Path copy = copyOf("dv-partitioned-with-checkpoint");
    try (Stream<Path> files = Files.list(copy)) {
      for (Path dv : files.filter(p -> p.getFileName().toString().startsWith("deletion_vector_")).toList()) {
        Files.write(dv, new byte[] {1, 0, 0});
      }
    }
    Table table = Table.forPath(new LocalObjectStore(dir), copy.getFileName().toString());
    assertThatThrownBy(() -> table.latestSnapshot().scan().build().rows().toList()).isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("The deletion vector of data file").hasMessageContaining("deletion_vector_")
        .hasMessageContaining("Restore it");
  }

  private Path copyOf(String golden) throws IOException {
    Path source = GoldenTablesReadIT.tables().stream().filter(p -> p.getFileName().toString().equals(golden))
        .findFirst().orElseThrow();
    Path target = dir.resolve(golden);
    try (Stream<Path> walk = Files.walk(source)) {
      for (Path p : walk.toList()) {
        Path to = target.resolve(source.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
        } else {
          Files.copy(p, to);
        }
      }
    }
    return target;
  }

  private static void deleteCommitJsonBelowCheckpoint(Path table) throws IOException {
    for (int v = 0; v < 3; v++) {
      Files.delete(table.resolve("_delta_log/" + String.format("%020d", v) + ".json"));
    }
  }

  private static List<Long> ids(Table table) {
    List<Long> out = new ArrayList<>();
    try (CloseableIterator<Row> it = table.latestSnapshot().scan().build().rows()) {
      it.forEachRemaining(r -> out.add((Long) r.get(0)));
    }
    out.sort(null);
    return out;
  }

  private static List<Long> expectedWithout(long... deleted) {
    return LongStream.range(0, 50).filter(i -> LongStream.of(deleted).noneMatch(d -> d == i)).boxed().toList();
  }
}
