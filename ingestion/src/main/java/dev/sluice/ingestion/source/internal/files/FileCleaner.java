package dev.sluice.ingestion.source.internal.files;

import dev.sluice.ingestion.Location;
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.storage.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

/**
 * Archives or deletes the input files of committed batches ({@code cleanSource}). Archiving copies
 * a file to the archive folder under its path relative to the source folder, then deletes it; a
 * file already gone (cleaned before a restart) is skipped.
 */
final class FileCleaner {
  private final Location folder;
  private final Optional<Location> archive;

  /** {@code archive} empty: delete. */
  FileCleaner(Location folder, Optional<Location> archive) {
    this.folder = folder;
    this.archive = archive;
  }

  void clean(List<FileEntry> files) {
    ObjectStore store = folder.store();
    for (FileEntry f : files) {
      if (archive.isPresent()) {
        if (store.status(f.key()).isEmpty()) {
          continue;
        }
        copy(f.key(), archive.get().resolve(relative(f.key())));
      }
      store.delete(f.key());
    }
  }

  private String relative(String key) {
    return folder.key().isEmpty() ? key : key.substring(folder.key().length() + 1);
  }

  private void copy(String key, Location target) {
    try (InputStream in = folder.store().open(key); OutputStream out = target.store().newOutputStream(target.key())) {
      in.transferTo(out);
    } catch (IOException e) {
      throw new StorageException("Archiving " + folder.store().uriOf(key) + " to " + target + " failed: " + e.getMessage()
          + "; the file stays in place and is archived again after the next commit", e);
    }
  }

  /**
   * @throws IllegalArgumentException if the archive folder lies inside the source folder (its files
   *     would be read again) unless it is hidden (its first folder name starts with '_' or '.'), or
   *     if the source folder lies inside the archive folder
   */
  static void checkArchive(Location folder, Location archive) {
    if (!folder.store().root().equals(archive.store().root())) {
      return;
    }
    String src = folder.key();
    String dst = archive.key();
    boolean inside = src.isEmpty() || dst.equals(src) || dst.startsWith(src + "/");
    boolean hiddenInside = inside && !dst.equals(src) && FileSource.isHidden(src.isEmpty() ? dst : dst.substring(src.length() + 1));
    boolean contains = dst.isEmpty() || src.startsWith(dst + "/");
    if ((inside && !hiddenInside) || contains) {
      throw new IllegalArgumentException("Option sourceArchiveDir " + archive + " overlaps the source folder " + folder
          + ": archived files would be read again; choose a folder outside the source folder (or a hidden one"
          + " inside it, such as _archive)");
    }
  }
}
