package dev.sluice.orchestration.diagnose;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.storage.ObjectStore;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.Collection;
import java.util.Optional;

/**
 * An object store that reads through and refuses every write with {@link WriteRefused}: a pipeline started on it
 * goes through its start-up checks (the plan fingerprint, the runner lease) and stops at its first write, so
 * diagnosing never changes a table or a checkpoint.
 */
final class ReadOnlyStore implements ObjectStore {
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

  private final ObjectStore delegate;

  ReadOnlyStore(ObjectStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public URI root() {
    return delegate.root();
  }

  @Override
  public CloseableIterator<ObjectStatus> list(String prefix, String startFrom) {
    return delegate.list(prefix, startFrom);
  }

  @Override
  public byte[] read(String key) {
    return delegate.read(key);
  }

  @Override
  public byte[] readRange(String key, long offset, int length) {
    return delegate.readRange(key, offset, length);
  }

  @Override
  public InputStream open(String key) {
    return delegate.open(key);
  }

  @Override
  public Optional<ObjectStatus> status(String key) {
    return delegate.status(key);
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
