package dev.sluice.table.testing;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.exceptions.StorageOutcomeUnknownException;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.storage.ObjectStore;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Wraps a store to inject failures: a create that fails before writing, a create that writes and then
 * reports an unknown outcome (a timeout after the request was sent), failing reads and overwrites.
 * Counts calls and open streams/listings so tests can assert that nothing leaked.
 *
 * <p>"Nth create" counts the create calls made after the failure was armed: {@code failNthCreate(1)}
 * fails the next one. Each armed create failure fires once.
 */
public final class FailingObjectStore implements ObjectStore {
  private final ObjectStore delegate;
  private final AtomicInteger creates = new AtomicInteger();
  private final AtomicInteger reads = new AtomicInteger();
  private final AtomicInteger lists = new AtomicInteger();
  private final AtomicInteger overwrites = new AtomicInteger();
  private final AtomicInteger deletes = new AtomicInteger();
  private final AtomicInteger openResources = new AtomicInteger();
  private volatile int failCreateAt = -1;
  private volatile int timeoutCreateAt = -1;
  private volatile Predicate<String> failReads = k -> false;
  private volatile Predicate<String> failOverwrites = k -> false;
  private volatile Predicate<String> failCreates = k -> false;

  public FailingObjectStore(ObjectStore delegate) {
    this.delegate = delegate;
  }

  /** The {@code n}th create from now throws {@link StorageException} without writing anything. */
  public FailingObjectStore failNthCreate(int n) {
    failCreateAt = creates.get() + checkPositive(n);
    return this;
  }

  /** The {@code n}th create from now writes the object, then throws {@link StorageOutcomeUnknownException}. */
  public FailingObjectStore timeoutAfterNthCreate(int n) {
    timeoutCreateAt = creates.get() + checkPositive(n);
    return this;
  }

  /** Reads ({@code read}, {@code readRange}, {@code open}) of matching keys throw {@link StorageException}. */
  public FailingObjectStore failReadsMatching(Predicate<String> keys) {
    failReads = keys;
    return this;
  }

  /** Every create of a matching key throws {@link StorageException} without writing anything. */
  public FailingObjectStore failCreatesMatching(Predicate<String> keys) {
    failCreates = keys;
    return this;
  }

  /** Overwrites of matching keys throw {@link StorageException} without writing anything. */
  public FailingObjectStore failOverwritesMatching(Predicate<String> keys) {
    failOverwrites = keys;
    return this;
  }

  /** Disarms every failure (counters keep counting). */
  public FailingObjectStore reset() {
    failCreateAt = -1;
    timeoutCreateAt = -1;
    failReads = k -> false;
    failOverwrites = k -> false;
    failCreates = k -> false;
    return this;
  }

  public int createCount() {
    return creates.get();
  }

  /** Calls of read, readRange and open. */
  public int readCount() {
    return reads.get();
  }

  public int listCount() {
    return lists.get();
  }

  public int overwriteCount() {
    return overwrites.get();
  }

  /** Calls of delete, plus one per key given to deleteAll. */
  public int deleteCount() {
    return deletes.get();
  }

  /** Input streams, output streams and listings handed out and not yet closed. */
  public int openResourceCount() {
    return openResources.get();
  }

  public ObjectStore delegate() {
    return delegate;
  }

  @Override
  public URI root() {
    return delegate.root();
  }

  @Override
  public CloseableIterator<ObjectStatus> list(String prefix, String startFrom) {
    lists.incrementAndGet();
    CloseableIterator<ObjectStatus> it = delegate.list(prefix, startFrom);
    openResources.incrementAndGet();
    return new CloseableIterator<>() {
      private boolean closed;

      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public ObjectStatus next() {
        return it.next();
      }

      @Override
      public void close() {
        if (!closed) {
          closed = true;
          openResources.decrementAndGet();
        }
        it.close();
      }
    };
  }

  @Override
  public byte[] read(String key) {
    checkRead(key);
    return delegate.read(key);
  }

  @Override
  public byte[] readRange(String key, long offset, int length) {
    checkRead(key);
    return delegate.readRange(key, offset, length);
  }

  @Override
  public InputStream open(String key) {
    checkRead(key);
    InputStream in = delegate.open(key);
    openResources.incrementAndGet();
    return new FilterInputStream(in) {
      private boolean closed;

      @Override
      public void close() throws IOException {
        if (!closed) {
          closed = true;
          openResources.decrementAndGet();
        }
        super.close();
      }
    };
  }

  @Override
  public Optional<ObjectStatus> status(String key) {
    return delegate.status(key);
  }

  @Override
  public void create(String key, byte[] data) {
    int n = creates.incrementAndGet();
    if (n == failCreateAt || failCreates.test(key)) {
      throw new StorageException("Creating " + uriOf(key) + " failed: injected failure (call " + n + ")");
    }
    delegate.create(key, data);
    if (n == timeoutCreateAt) {
      throw new StorageOutcomeUnknownException("Creating " + uriOf(key)
          + " may or may not have taken effect: injected timeout after the write (call " + n + ")");
    }
  }

  @Override
  public void overwrite(String key, byte[] data) {
    overwrites.incrementAndGet();
    if (failOverwrites.test(key)) {
      throw new StorageException("Writing " + uriOf(key) + " failed: injected failure");
    }
    delegate.overwrite(key, data);
  }

  @Override
  public OutputStream newOutputStream(String key) {
    OutputStream out = delegate.newOutputStream(key);
    openResources.incrementAndGet();
    return new FilterOutputStream(out) {
      private boolean closed;

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        if (!closed) {
          closed = true;
          openResources.decrementAndGet();
        }
        out.close();
      }
    };
  }

  @Override
  public void delete(String key) {
    deletes.incrementAndGet();
    delegate.delete(key);
  }

  @Override
  public void deleteAll(Collection<String> keys) {
    deletes.addAndGet(keys.size());
    delegate.deleteAll(keys);
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public String toString() {
    return "FailingObjectStore(" + delegate + ")";
  }

  private void checkRead(String key) {
    reads.incrementAndGet();
    if (failReads.test(key)) {
      throw new StorageException("Reading " + uriOf(key) + " failed: injected failure");
    }
  }

  private static int checkPositive(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("n counts create calls from 1, got " + n);
    }
    return n;
  }
}
