package dev.sluice.bronze;

import dev.sluice.ingestion.Checkpoints;
import dev.sluice.ingestion.Location;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The input files a bronze table already holds rows of ({@code _source} of the table, {@code source} of its
 * quarantine) when a new checkpoint starts over it, so that reprocessing after a deleted checkpoint does not
 * append them again: bronze is an append, and the fresh checkpoint's source sees every landing file as new.
 *
 * <p>Taken once, when the checkpoint has no {@code metadata} yet (no run has used it), and kept in
 * {@code <checkpoint>/bronze/ingested-before} (one URI a line) so that a run interrupted part way through the
 * backlog skips the same files when it resumes. A checkpoint created over an empty or missing table skips
 * nothing. To ingest every file again, delete the table folder (its checkpoints are inside it).
 */
final class IngestedFiles {
  private static final Logger LOG = LoggerFactory.getLogger(IngestedFiles.class);
  static final String FILE = "bronze/ingested-before";

  private final Set<String> files;

  private IngestedFiles(Set<String> files) {
    this.files = files;
  }

  static IngestedFiles none() {
    return new IngestedFiles(Set.of());
  }

  /** Takes (for a checkpoint no run has used) or reads back the files to skip. */
  static IngestedFiles forCheckpoint(String pipeline, Location checkpoint, Table table, Table quarantine) {
    Location kept = checkpoint.resolve(FILE);
    if (!Checkpoints.isUnused(checkpoint)) {
      return checkpoint.store().status(kept.key()).isEmpty() ? none() : read(kept);
    }
    Set<String> files = new TreeSet<>();
    collect(table, BronzeColumns.SOURCE, files);
    collect(quarantine, "source", files);
    if (files.isEmpty()) {
      return none();
    }
    // Overwrite: a previous attempt may have written it and then failed before the query created its metadata.
    kept.store().overwrite(kept.key(), String.join("\n", files).getBytes(StandardCharsets.UTF_8));
    LOG.warn("Pipeline '{}' starts a new checkpoint {} over bronze table {}, which already holds rows of {} input"
        + " files: those files are skipped (counted as deduplicated), new files are ingested. To ingest every file"
        + " again, delete the table folder (its checkpoints are inside it) and run again.", pipeline, checkpoint,
        table.uri(), files.size());
    return new IngestedFiles(Set.copyOf(files));
  }

  boolean contains(String source) {
    return source != null && files.contains(source);
  }

  boolean isEmpty() {
    return files.isEmpty();
  }

  private static IngestedFiles read(Location kept) {
    String text = new String(kept.store().read(kept.key()), StandardCharsets.UTF_8);
    return new IngestedFiles(text.isEmpty() ? Set.of() : Set.of(text.split("\n")));
  }

  private static void collect(Table table, String column, Set<String> into) {
    if (!table.exists()) {
      return;
    }
    try (CloseableIterator<Row> it = table.latestSnapshot().scan().select(column).build().rows()) {
      it.forEachRemaining(r -> {
        if (r.get(0) != null) {
          into.add((String) r.get(0));
        }
      });
    }
  }
}
