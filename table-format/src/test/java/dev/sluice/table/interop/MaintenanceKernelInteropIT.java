package dev.sluice.table.interop;

import static dev.sluice.table.interop.KernelInteropIT.ALL_TYPES;
import static dev.sluice.table.interop.KernelInteropIT.allTypes;
import static dev.sluice.table.interop.KernelInteropIT.kernelRows;
import static dev.sluice.table.interop.KernelInteropIT.sluiceRows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.Table;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.storage.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Delta Kernel reads tables after OPTIMIZE, VACUUM and log cleanup exactly as Sluice does, time travel included. */
class MaintenanceKernelInteropIT {
  @TempDir Path dir;

  private Table manySmallFiles(String name) {
    Table table = Table.forPath(new LocalObjectStore(dir), name);
    table.create(ALL_TYPES).commit();
    for (int c = 0; c < 8; c++) {
      table.newAppend().rows(allTypes(c * 25L, c * 25L + 25)).commit();
    }
    return table;
  }

  @Test
  void kernelReadsAZOrderedTableAndTheVersionBeforeTheOptimize() {
    Table table = manySmallFiles("optimized");
    String path = dir.resolve("optimized").toString();
    List<List<Object>> before = sluiceRows(table);

    table.optimize().zOrderBy("i", "d").execute();
    table.optimize().execute();

    assertThat(table.latestSnapshot().files()).hasSize(1);
    assertThat(KernelReader.latestVersion(path, KernelReader.localConf())).isEqualTo(9);
    assertThat(kernelRows(path, KernelReader.localConf())).isEqualTo(before).isEqualTo(sluiceRows(table));
    assertThat(ids(KernelReader.readRowsAt(path, KernelReader.localConf(), 8)))
        .isEqualTo(ids(KernelReader.readRows(path, KernelReader.localConf()))).hasSize(200);
  }

  private static List<Object> ids(List<List<Object>> rows) {
    return rows.stream().map(r -> r.get(0)).sorted().toList();
  }

  @Test
  void kernelReadsAVacuumedTableAndTheVersionsWithinTheRetention() {
    Table table = manySmallFiles("vacuumed");
    String path = dir.resolve("vacuumed").toString();
    table.optimize().execute();
    table.newDelete().where(Predicate.lt("id", 10L)).commit();
    table.newDelete().where(Predicate.lt("id", 20L)).commit();

    // Every file was removed within the hour: all versions stay readable.
    assertThat(table.vacuum().retain(Duration.ofHours(1)).force(true).execute().files()).isEmpty();
    assertThat(ids(KernelReader.readRowsAt(path, KernelReader.localConf(), 8))).hasSize(200).doesNotHaveDuplicates();
    assertThat(KernelReader.readRowsAt(path, KernelReader.localConf(), 10)).hasSize(190);

    var r = table.vacuum().retain(Duration.ZERO).force(true).execute();

    assertThat(r.files()).hasSize(10); // eight appended files, the OPTIMIZE output, the first DELETE's rewrite
    assertThat(kernelRows(path, KernelReader.localConf())).isEqualTo(sluiceRows(table)).hasSize(180);
  }

  @Test
  void kernelReadsATableWhoseExpiredLogWasCleanedUp() throws Exception {
    Table table = manySmallFiles("cleaned");
    table.optimize().execute();
    table.newDelete().where(Predicate.lt("id", 10L)).commit(); // version 10 writes a checkpoint
    table.newDelete().where(Predicate.lt("id", 20L)).commit();
    for (int v = 0; v <= 10; v++) {
      Path commit = dir.resolve(String.format("cleaned/_delta_log/%020d.json", v));
      Files.setLastModifiedTime(commit, FileTime.from(Instant.now().minus(Duration.ofDays(40)).plusSeconds(v)));
    }

    var r = table.cleanUpLog().execute();

    assertThat(r.earliestVersion()).hasValue(10);
    String path = dir.resolve("cleaned").toString();
    assertThat(kernelRows(path, KernelReader.localConf())).isEqualTo(sluiceRows(table)).hasSize(180);
    assertThat(KernelReader.readRowsAt(path, KernelReader.localConf(), 10)).hasSize(190);
  }
}
