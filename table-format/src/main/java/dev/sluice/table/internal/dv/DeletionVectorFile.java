package dev.sluice.table.internal.dv;

import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.storage.StoragePaths;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.UUID;
import java.util.zip.CRC32;

/**
 * A new DV file of one operation ({@code deletion_vector_<uuid>.bin} in the table root), holding the deletion
 * vectors of every data file the operation deletes rows from, so that a commit writes one file, not one per data
 * file. Layout (PROTOCOL.md, "Deletion Vector Format"): a format version byte (1), then per DV its size (4 bytes,
 * big-endian), its serialised {@link DeletedRows} and their CRC-32 (4 bytes, big-endian). Not thread-safe.
 */
public final class DeletionVectorFile {
  private static final int FORMAT_VERSION = 1;
  private final UUID id = UUID.randomUUID();
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private int count;

  public DeletionVectorFile() {
    bytes.write(FORMAT_VERSION);
  }

  /** Appends {@code rows}; returns the {@code deletionVector} descriptor JSON that points at them. */
  public String add(DeletedRows rows) {
    return add(rows, rows.serialize());
  }

  /** Appends {@code rows}, already serialised as {@code data}. */
  public String add(DeletedRows rows, byte[] data) {
    int offset = bytes.size();
    CRC32 crc = new CRC32();
    crc.update(data);
    bytes.writeBytes(ByteBuffer.allocate(4).putInt(data.length).array());
    bytes.writeBytes(data);
    bytes.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    count++;
    return DeletionVectorDescriptor.fileJson(id, offset, data.length, rows);
  }

  /** The file's size in bytes so far. */
  public long size() {
    return bytes.size();
  }

  public boolean isEmpty() {
    return count == 0;
  }

  /** The file's object key under the table at {@code tablePath}. */
  public String key(String tablePath) {
    return StoragePaths.join(tablePath, "deletion_vector_" + id + ".bin");
  }

  /** Creates the file (it never exists: its name is a new UUID). */
  public void write(ObjectStore store, String tablePath) {
    store.create(key(tablePath), bytes.toByteArray());
  }
}
