package dev.sluice.ingestion.source.internal.files;

import java.util.Comparator;

/** One input file: its key in the source's store, size in bytes and modification time (epoch ms). */
record FileEntry(String key, long size, long modificationTime) {
  /** Discovery order: oldest first, ties broken by key so that the order is the same on every listing. */
  static final Comparator<FileEntry> OLDEST_FIRST =
      Comparator.comparingLong(FileEntry::modificationTime).thenComparing(FileEntry::key);
  static final Comparator<FileEntry> NEWEST_FIRST =
      Comparator.comparingLong(FileEntry::modificationTime).reversed().thenComparing(FileEntry::key);
}
