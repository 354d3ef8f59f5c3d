package dev.sluice.ingestion.internal.checkpoint;

import java.util.List;

/**
 * The record that batch N is done ({@code commits/N}), with the watermark the next batch starts from and, for a
 * query with several {@code withWatermark} steps (a stream-stream join), each one's own watermark: the query's is
 * their minimum, and a restart must resume each, or a side that sends nothing for a while would hold it back.
 */
public record CommitEntry(long nextBatchWatermarkMs, List<Long> operatorWatermarksMs) {
  public CommitEntry {
    operatorWatermarksMs = List.copyOf(operatorWatermarksMs);
  }

  public CommitEntry(long nextBatchWatermarkMs) {
    this(nextBatchWatermarkMs, List.of());
  }
}
