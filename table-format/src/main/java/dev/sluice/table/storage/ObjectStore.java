package dev.sluice.table.storage;

import dev.sluice.table.data.CloseableIterator;
import java.io.Closeable;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.Collection;
import java.util.Optional;

/**
 * Object storage shaped by the Delta log: sorted listing, whole and ranged reads, and an atomic
 * create-if-absent that is the commit primitive.
 *
 * <p>Keys are '/'-separated paths relative to the store's {@link #root()}, without a leading '/'
 * (e.g. {@code bronze/orders/_delta_log/00000000000000000000.json}). Folders are implicit, as on S3.
 * Keys that are empty, have a leading, trailing or doubled '/', or a "." or ".." segment are
 * rejected with an {@link IllegalArgumentException}. Listings are in Unicode code point order (S3's
 * UTF-8 byte order) on every store.
 * Implementations are thread-safe. Every failure is a {@link dev.sluice.table.exceptions.StorageException}
 * (or a subclass) whose message names the operation and the key.
 */
public interface ObjectStore extends Closeable {

  /** Where key "" lives, e.g. {@code file:///data/warehouse/} or {@code s3://bucket/prefix/}; ends with '/'. */
  URI root();

  /**
   * Objects whose key starts with {@code prefix} and is lexicographically {@code >= startFrom}, in
   * lexicographic key order, at any depth below the prefix. Pages are fetched lazily; the caller
   * closes the iterator.
   */
  CloseableIterator<ObjectStatus> list(String prefix, String startFrom);

  /** All objects whose key starts with {@code prefix}, in lexicographic key order. */
  default CloseableIterator<ObjectStatus> list(String prefix) {
    return list(prefix, prefix);
  }

  /**
   * The whole object.
   *
   * @throws dev.sluice.table.exceptions.ObjectNotFoundException if it does not exist
   */
  byte[] read(String key);

  /**
   * {@code length} bytes from {@code offset} (fewer if the object ends first).
   *
   * @throws dev.sluice.table.exceptions.ObjectNotFoundException if it does not exist
   */
  byte[] readRange(String key, long offset, int length);

  /** A stream over the whole object; the caller closes it. */
  InputStream open(String key);

  /** Size and modification time, or empty when the object does not exist. */
  Optional<ObjectStatus> status(String key);

  /**
   * Creates the object only if no object has the key, atomically: of several concurrent creators
   * (threads, processes or hosts) exactly one succeeds, and readers never see a partial object.
   *
   * @throws dev.sluice.table.exceptions.ObjectAlreadyExistsException if the key exists
   * @throws dev.sluice.table.exceptions.StorageOutcomeUnknownException if the request may have taken effect
   */
  void create(String key, byte[] data);

  /** Writes the object, replacing any existing one. Readers see the old or the new object, never a mix. */
  void overwrite(String key, byte[] data);

  /**
   * A stream that writes a (possibly large) object; it becomes visible, replacing any existing one,
   * only when the stream is closed without error. Used for data files, which have unique names.
   */
  OutputStream newOutputStream(String key);

  /** Deletes the object; no error when it does not exist. */
  void delete(String key);

  /** Deletes all the objects (in batches where the store supports it); missing ones are ignored. */
  void deleteAll(Collection<String> keys);

  /** The absolute URI of a key, e.g. for logging or for engines that want a full path. */
  default URI uriOf(String key) {
    return root().resolve(StoragePaths.encodeKeyForUri(key));
  }

  /**
   * The key of an absolute URI if it lies below this store's root (used for absolute paths in the
   * log, such as {@code file:/tmp/table/part-0.parquet}); empty otherwise.
   */
  default Optional<String> keyOf(URI uri) {
    return StoragePaths.relativize(root(), uri);
  }

  @Override
  default void close() {}
}
