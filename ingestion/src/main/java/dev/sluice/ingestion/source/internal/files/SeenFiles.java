package dev.sluice.ingestion.source.internal.files;

import java.util.HashMap;
import java.util.Map;

/**
 * The files already taken, so that discovery need not re-read the log. Files older than the newest
 * seen file minus {@code maxAgeMs} are forgotten and, from then on, ignored by discovery: this keeps
 * the set (and the compacted log) bounded, as Spark's {@code SeenFilesMap} does.
 */
final class SeenFiles {
  private final long maxAgeMs;
  private final Map<String, FileEntry> seen = new HashMap<>();
  private long latest = Long.MIN_VALUE;
  private long purgeBefore = Long.MIN_VALUE;

  SeenFiles(long maxAgeMs) {
    this.maxAgeMs = maxAgeMs;
  }

  void add(FileEntry file) {
    seen.put(file.key(), file);
    latest = Math.max(latest, file.modificationTime());
  }

  /** True if discovery should take the file: not seen and not older than the age limit. */
  boolean isNew(FileEntry file) {
    return file.modificationTime() >= purgeBefore && !seen.containsKey(file.key());
  }

  /** The file as it was when taken, or null when not seen (or forgotten). */
  FileEntry taken(String key) {
    return seen.get(key);
  }

  /** Forgets files older than the age limit; returns the limit (epoch ms). */
  long purge() {
    if (latest != Long.MIN_VALUE) {
      long limit;
      try {
        limit = Math.subtractExact(latest, maxAgeMs);
      } catch (ArithmeticException e) {
        limit = Long.MIN_VALUE;
      }
      purgeBefore = Math.max(purgeBefore, limit);
    }
    long limit = purgeBefore;
    seen.values().removeIf(f -> f.modificationTime() < limit);
    return purgeBefore;
  }

  long purgeBefore() {
    return purgeBefore;
  }

  int size() {
    return seen.size();
  }
}
