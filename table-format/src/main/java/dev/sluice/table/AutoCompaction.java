package dev.sluice.table;

import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.maintenance.CompactionPlan;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.internal.write.NewFile;
import dev.sluice.table.internal.write.WriteOptions;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delta's auto-compaction ({@code delta.autoOptimize.autoCompact}): after a write, the partitions it wrote to that
 * now hold at least {@link #MIN_NUM_FILES} files below the target size are compacted at once, in their own
 * {@code OPTIMIZE} commit ({@code auto=true}). The write is already durable, so a failed compaction only logs.
 */
final class AutoCompaction {
  /** The table property that turns it on ({@code true} or {@code auto}). */
  static final String PROPERTY = "delta.autoOptimize.autoCompact";
  /** Delta's {@code spark.databricks.delta.autoCompact.minNumFiles}. */
  static final int MIN_NUM_FILES = 50;
  private static final Logger LOG = LoggerFactory.getLogger(AutoCompaction.class);

  private AutoCompaction() {}

  static boolean enabledFor(Map<String, String> configuration) {
    String v = configuration.getOrDefault(PROPERTY, "false").trim();
    return v.equalsIgnoreCase("true") || v.equalsIgnoreCase("auto") || v.equalsIgnoreCase("legacy");
  }

  /** Compacts the partitions {@code written} went to when they have enough small files; returns what it did. */
  static Optional<Optimize.Result> afterWrite(TableContext context, List<NewFile> written, WriteOptions options) {
    if (written.isEmpty()) {
      return Optional.empty();
    }
    try {
      SnapshotState snapshot = context.latestState();
      long target = options.forTable(snapshot.metadata().configuration()).targetFileSizeBytes();
      Set<Map<String, String>> touched = new HashSet<>();
      written.forEach(f -> touched.add(f.add().partitionValues()));
      Map<Map<String, String>, Integer> small = CompactionPlan.smallFilesPerPartition(
          snapshot.activeFiles().values(), target);
      touched.removeIf(p -> small.getOrDefault(p, 0) < MIN_NUM_FILES);
      if (touched.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(new Optimize(context).targetFileSize(target).retries(1).auto(touched).execute());
    } catch (RuntimeException e) {
      LOG.warn("Auto-compaction of {} after a write failed; the write is committed and the small files stay until"
          + " the next compaction: {}", context.log().tablePath(), e.toString());
      return Optional.empty();
    }
  }
}
