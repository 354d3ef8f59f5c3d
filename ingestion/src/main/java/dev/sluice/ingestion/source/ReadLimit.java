package dev.sluice.ingestion.source;

/**
 * How much one micro-batch may take from a source ({@code maxFilesPerTrigger}, {@code maxBytesPerTrigger},
 * {@code maxRecordsPerTrigger}); a source applies the limits it understands. A file or record that alone
 * exceeds a byte limit is still taken (progress is guaranteed).
 */
public record ReadLimit(long maxFiles, long maxBytes, long maxRecords) {
  public static final ReadLimit ALL = new ReadLimit(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);

  public boolean isAll() {
    return maxFiles == Long.MAX_VALUE && maxBytes == Long.MAX_VALUE && maxRecords == Long.MAX_VALUE;
  }
}
