package dev.sluice.orchestration.backlog;

import dev.sluice.ingestion.internal.checkpoint.OffsetEntry;
import dev.sluice.ingestion.internal.checkpoint.QueryCheckpoint;
import dev.sluice.ingestion.source.SourceOffset;
import java.util.Optional;
import java.util.OptionalLong;

/** Where a query's first source stands: the end offset of its last committed batch. */
public final class CommittedOffset {
  private CommittedOffset() {}

  /** Empty when no batch is committed yet (the query starts where its source options say). */
  public static Optional<SourceOffset> of(QueryCheckpoint checkpoint) {
    OptionalLong batch = checkpoint.latestCommitBatch();
    if (batch.isEmpty()) {
      return Optional.empty();
    }
    return checkpoint.offsets(batch.getAsLong()).map(OffsetEntry::offsets)
        .filter(o -> !o.isEmpty()).flatMap(o -> o.get(0));
  }
}
