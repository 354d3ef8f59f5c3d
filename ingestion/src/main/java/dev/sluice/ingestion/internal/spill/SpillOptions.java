package dev.sluice.ingestion.internal.spill;

import java.nio.file.Path;

/**
 * Where and when batches spill. Each batch being built may hold {@code sluice.batch.memoryBytes} of rows in the heap
 * (default: a sixteenth of the maximum heap, at least 16 MB) before it moves them to a file under
 * {@code sluice.spill.dir} (default: {@code <java.io.tmpdir>/sluice-spill}).
 */
public final class SpillOptions {
  public static final String BUDGET_PROPERTY = "sluice.batch.memoryBytes";
  public static final String DIRECTORY_PROPERTY = "sluice.spill.dir";

  private SpillOptions() {}

  /** The heap one batch's rows may take before they spill. */
  public static long budgetBytes() {
    String value = System.getProperty(BUDGET_PROPERTY);
    if (value != null) {
      try {
        return Long.parseLong(value.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("System property " + BUDGET_PROPERTY + " must be a number of bytes, not '"
            + value + "'", e);
      }
    }
    return Math.max(16L << 20, Runtime.getRuntime().maxMemory() / 16);
  }

  public static Path directory() {
    String value = System.getProperty(DIRECTORY_PROPERTY);
    return value != null ? Path.of(value) : Path.of(System.getProperty("java.io.tmpdir"), "sluice-spill");
  }
}
