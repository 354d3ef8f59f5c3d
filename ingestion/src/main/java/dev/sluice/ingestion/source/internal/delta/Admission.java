package dev.sluice.ingestion.source.internal.delta;

/**
 * The file and byte budget of one batch, with Spark's {@code AdmissionLimits} rule: a unit is taken
 * while both budgets are still positive, then charged. So the first unit is always taken and the
 * byte limit is soft (a batch may pass it by its last file).
 */
final class Admission {
  private long files;
  private long bytes;

  Admission(long maxFiles, long maxBytes) {
    this.files = maxFiles;
    this.bytes = maxBytes;
  }

  boolean admit(long fileCount, long size) {
    boolean admitted = files > 0 && bytes > 0;
    files -= fileCount;
    bytes -= Math.max(0, size);
    return admitted;
  }
}
