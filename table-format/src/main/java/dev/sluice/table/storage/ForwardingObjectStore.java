package dev.sluice.table.storage;

import dev.sluice.table.data.CloseableIterator;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.Collection;
import java.util.Optional;

/**
 * An object store that forwards every call to another; a wrapper (read-only views, metrics, fault injection in tests)
 * overrides only the calls it changes.
 */
public abstract class ForwardingObjectStore implements ObjectStore {
  protected final ObjectStore delegate;

  protected ForwardingObjectStore(ObjectStore delegate) {
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
    delegate.create(key, data);
  }

  @Override
  public void overwrite(String key, byte[] data) {
    delegate.overwrite(key, data);
  }

  @Override
  public OutputStream newOutputStream(String key) {
    return delegate.newOutputStream(key);
  }

  @Override
  public void delete(String key) {
    delegate.delete(key);
  }

  @Override
  public void deleteAll(Collection<String> keys) {
    delegate.deleteAll(keys);
  }
}
