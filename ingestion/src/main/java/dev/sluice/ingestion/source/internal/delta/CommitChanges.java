package dev.sluice.ingestion.source.internal.delta;

import dev.sluice.table.DataFile;
import java.util.List;

/**
 * What one commit means for a stream: the data files it added with {@code dataChange=true} (in log
 * order), whether it removed data ({@code remove} with {@code dataChange=true}), and the size of its
 * change data (its {@code cdc} files if any, else its data-changing adds and removes) for rate limits.
 */
record CommitChanges(
    long version, String operation, List<DataFile> addedFiles, boolean removesData, int changeFiles,
    long changeBytes) {
  CommitChanges {
    addedFiles = List.copyOf(addedFiles);
  }

  /** Whether the change data feed has rows for this version. */
  boolean hasChanges() {
    return changeFiles > 0;
  }
}
