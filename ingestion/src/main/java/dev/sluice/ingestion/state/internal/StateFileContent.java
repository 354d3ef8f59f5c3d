package dev.sluice.ingestion.state.internal;

import dev.sluice.ingestion.internal.spill.SpillOptions;
import dev.sluice.table.storage.ObjectStore;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The bytes of a state file being written: in the heap while small, moved to a local spill file
 * ({@code sluice.spill.dir}) once they pass {@link #HEAP_LIMIT}. A batch that puts 10 M keys writes a changelog of
 * hundreds of MB; held in the heap it (and its copy for the upload) took the whole of a 1 GB heap.
 */
final class StateFileContent extends OutputStream {
  /** Past this many bytes the file goes to local disk. */
  static final int HEAP_LIMIT = 8 << 20;

  private ByteArrayOutputStream heap = new ByteArrayOutputStream(4096);
  private Path spill;
  private OutputStream disk;
  private long size;
  private long records;

  @Override
  public void write(int b) throws IOException {
    target(1).write(b);
    size++;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    target(len).write(b, off, len);
    size += len;
  }

  private OutputStream target(int more) throws IOException {
    if (disk == null && size + more > HEAP_LIMIT) {
      Path dir = SpillOptions.directory();
      Files.createDirectories(dir);
      spill = Files.createTempFile(dir, "state-", ".bin");
      disk = new BufferedOutputStream(Files.newOutputStream(spill), 1 << 16);
      heap.writeTo(disk);
      heap = null;
    }
    return disk != null ? disk : heap;
  }

  long size() {
    return size;
  }

  /** The number of put and remove records the file holds. */
  long records() {
    return records;
  }

  void records(long records) {
    this.records = records;
  }

  /** Writes (or atomically replaces) {@code key} with these bytes, then frees them. */
  void writeTo(ObjectStore store, String key) {
    try {
      if (disk == null) {
        store.overwrite(key, heap.toByteArray());
        return;
      }
      disk.close();
      try (OutputStream out = store.newOutputStream(key)) {
        Files.copy(spill, out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Writing the state file " + store.uriOf(key) + " from " + spill + " failed: "
          + e.getMessage(), e);
    } finally {
      discard();
    }
  }

  /** Frees the bytes (deletes the spill file) without writing them anywhere. */
  void discard() {
    heap = null;
    if (spill != null) {
      try {
        disk.close();
      } catch (IOException ignored) {
        // the file is deleted next; nothing of it is kept
      }
      try {
        Files.deleteIfExists(spill);
      } catch (IOException ignored) {
        // a leftover spill file only takes disk until the spill folder is cleaned
      }
      spill = null;
    }
  }

  /** The bytes, for files known to be small (tests); fails past the heap limit. */
  byte[] toByteArray() {
    if (heap == null) {
      throw new IllegalStateException("the state file is " + size + " bytes on local disk, not in the heap");
    }
    return heap.toByteArray();
  }
}
