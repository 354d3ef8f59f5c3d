package dev.sluice.table.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.Table;
import dev.sluice.table.exceptions.InvalidTableException;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.exceptions.UnsupportedTableFeatureException;
import dev.sluice.table.storage.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every Spark-written golden table: Sluice reads the reader-1 tables with exactly the rows Delta
 * Kernel reads, and refuses the others by name (unsupported features) or as broken logs.
 */
class GoldenTablesReadIT {
  /** Tables whose protocol or features Sluice doesn't implement: refused with UnsupportedTableFeatureException. */
  static final Set<String> UNSUPPORTED = Set.of(
      "deltalog-invalid-protocol-version", "collations-preview-table",
      "collations-table", "data-reader-timestamp_ntz", "data-reader-timestamp_ntz-id-mode",
      "data-reader-timestamp_ntz-name-mode", "data-skipping-basic-stats-all-types-columnmapping-id",
      "data-skipping-basic-stats-all-types-columnmapping-name", "dv-with-columnmapping", "parquet-all-types", "parquet-all-types-legacy-format", "spark-variant-checkpoint",
      "table-with-columnmapping-mode-id", "table-with-columnmapping-mode-name", "table-with-icebegCompatV2Enabled",
      "type-widening", "type-widening-nested", "v2-checkpoint-json", "v2-checkpoint-parquet");

  /** Tables whose logs are broken on purpose: refused with InvalidTableException. */
  static final Set<String> BROKEN = Set.of(
      "versions-not-contiguous", "deltalog-state-reconstruction-without-protocol",
      "deltalog-state-reconstruction-without-metadata", "deltalog-state-reconstruction-from-checkpoint-missing-protocol",
      "deltalog-state-reconstruction-from-checkpoint-missing-metadata", "data-reader-absolute-paths-escaped-chars");

  /** Log-replay fixtures without a schema: their snapshots load (GoldenLogIT) but have no rows to read. */
  static final Set<String> NO_SCHEMA = Set.of(
      "canonicalized-paths-normal-a", "canonicalized-paths-normal-b", "canonicalized-paths-special-a",
      "canonicalized-paths-special-b", "corrupted-last-checkpoint", "deltalog-commit-info", "update-deleted-directory");

  /** Log fixtures whose data files are stand-ins (1-byte or missing files): reading rows fails naming the file. */
  static final Set<String> FAKE_DATA = Set.of(
      "checkpoint", "delete-re-add-same-file-different-transactions", "log-replay-special-characters-b");

  static List<Path> tables() throws IOException {
    Path root = GoldenTables.path("snapshot-data0").getParent();
    List<Path> out = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root, 2)) {
      walk.filter(p -> Files.isDirectory(p.resolve("_delta_log"))).sorted().forEach(out::add);
    }
    return out;
  }

  @TestFactory
  Stream<DynamicTest> everyGoldenTable() throws IOException {
    return tables().stream().map(dir -> DynamicTest.dynamicTest(dir.getFileName().toString(), () -> check(dir)));
  }

  private static void check(Path dir) {
    String name = dir.getFileName().toString();
    Table table = Table.forPath(new LocalObjectStore(dir.getParent()), name);
    List<List<Object>> ours;
    try {
      ours = KernelInteropIT.sluiceRows(table);
    } catch (UnsupportedTableFeatureException e) {
      assertThat(UNSUPPORTED).as("Sluice refused %s: %s", name, e.getMessage()).contains(name);
      assertThat(e.getMessage()).contains(name).containsAnyOf("feature", "version");
      return;
    } catch (InvalidTableException e) {
      if (NO_SCHEMA.contains(name)) {
        assertThat(e.getMessage()).contains("no schema");
      } else if (FAKE_DATA.contains(name)) {
        // a 1-byte stand-in is not Parquet; a missing one names the version and the repair
        assertThat(e.getMessage()).containsAnyOf("cannot be read as Parquet", "does not exist, but version");
      } else {
        assertThat(BROKEN).as("Sluice found %s broken: %s", name, e.getMessage()).contains(name);
      }
      return;
    } catch (ObjectNotFoundException e) {
      assertThat(FAKE_DATA).as("Sluice misses a file of %s: %s", name, e.getMessage()).contains(name);
      assertThat(e.getMessage()).contains("does not exist");
      return;
    }
    assertThat(NO_SCHEMA).as("%s has no schema", name).doesNotContain(name);
    assertThat(FAKE_DATA).as("%s has stand-in data files", name).doesNotContain(name);
    assertThat(UNSUPPORTED).as("Sluice should refuse %s", name).doesNotContain(name);
    assertThat(BROKEN).as("Sluice should find %s broken", name).doesNotContain(name);
    assertThat(ours).as("rows of %s", name).isEqualTo(KernelInteropIT.kernelRows(dir.toString(), KernelReader.localConf()));
  }
}
