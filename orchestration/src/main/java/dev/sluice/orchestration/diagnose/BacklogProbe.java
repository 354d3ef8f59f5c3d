package dev.sluice.orchestration.diagnose;

import dev.sluice.config.PipelineConfig;
import dev.sluice.ingestion.SluiceSession;

/** How much a pipeline's next run has to read: new files or Kafka offsets (bronze), or upstream commits (silver, gold). */
@FunctionalInterface
public interface BacklogProbe {
  /** A backlog of {@code total} {@code unit}s; total -1 when it can't be known, {@code note} then may say why. */
  record Backlog(String unit, long total, String note) {}

  Backlog of(SluiceSession session, PipelineConfig pipeline);
}
