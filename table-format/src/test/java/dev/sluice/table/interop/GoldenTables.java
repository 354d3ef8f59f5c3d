package dev.sluice.table.interop;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the Spark-written golden tables through the {@code sluice.shared.dir} system property. */
final class GoldenTables {

  private GoldenTables() {}

  static Path path(String table) {
    String shared = System.getProperty("sluice.shared.dir");
    if (shared == null) {
      throw new IllegalStateException("System property sluice.shared.dir is not set, so golden table " + table
          + " cannot be found; run through Maven or pass -Dsluice.shared.dir=/work/shared.");
    }
    Path path = Path.of(shared, "delta-golden", table);
    if (!Files.isDirectory(path.resolve("_delta_log"))) {
      throw new IllegalStateException("Golden table " + table + " not found at " + path
          + ": sluice.shared.dir must point at the folder that holds delta-golden/.");
    }
    return path;
  }
}
