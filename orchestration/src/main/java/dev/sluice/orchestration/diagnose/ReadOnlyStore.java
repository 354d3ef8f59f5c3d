package dev.sluice.orchestration.diagnose;

import dev.sluice.table.storage.ForwardingObjectStore;
import dev.sluice.table.storage.ObjectStore;
import java.io.OutputStream;
import java.util.Collection;

/**
 * An object store that reads through and refuses every write with {@link WriteRefused}: a pipeline started on it
 * goes through its start-up checks (the plan fingerprint, the runner lease) and stops at its first write, so
 * diagnosing never changes a table or a checkpoint.
 */
final class ReadOnlyStore extends ForwardingObjectStore {
  /** The pipeline tried to write {@link #key()}; everything before it was read-only. */
  static final class WriteRefused extends RuntimeException {
    private final String key;

    WriteRefused(String key) {
      super("diagnose is read-only: refused to write " + key, null, false, false);
      this.key = key;
    }

    String key() {
      return key;
    }
  }

  ReadOnlyStore(ObjectStore delegate) {
    super(delegate);
  }

  @Override
  public void create(String key, byte[] data) {
    throw new WriteRefused(key);
  }

  @Override
  public void overwrite(String key, byte[] data) {
    throw new WriteRefused(key);
  }

  @Override
  public OutputStream newOutputStream(String key) {
    throw new WriteRefused(key);
  }

  @Override
  public void delete(String key) {
    throw new WriteRefused(key);
  }

  @Override
  public void deleteAll(Collection<String> keys) {
    throw new WriteRefused(keys.isEmpty() ? "(nothing)" : keys.iterator().next());
  }

  @Override
  public void close() {
    delegate.close();
  }
}
