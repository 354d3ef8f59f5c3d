package dev.sluice.ingestion.internal.checkpoint;

import dev.sluice.ingestion.source.SourceOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The write-ahead record of batch N ({@code offsets/N}): the end offset of each source (empty when a
 * source had nothing yet), the watermark and timestamp the batch runs with, and settings that must
 * not change across a re-run. Stored as Spark does: {@code v1}, a metadata line, one line per source.
 */
public record OffsetEntry(long batchWatermarkMs, long batchTimestampMs, Map<String, String> conf,
    List<Optional<SourceOffset>> offsets) {
  public OffsetEntry {
    conf = Map.copyOf(conf);
    offsets = Collections.unmodifiableList(new ArrayList<>(offsets));
  }
}
