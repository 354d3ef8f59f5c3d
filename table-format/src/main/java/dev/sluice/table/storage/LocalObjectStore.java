package dev.sluice.table.storage;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.exceptions.ObjectAlreadyExistsException;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.exceptions.StorageException;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * An object store on a local (or mounted) file system. {@link #create} is atomic across processes:
 * the bytes go to a temporary file first, which is then hard-linked to the key (linking fails if the
 * key exists), so no reader ever sees a partial commit and exactly one of several creators wins.
 */
public final class LocalObjectStore implements ObjectStore {
  /** Temporary files start with this; listings skip them. */
  static final String TEMP_PREFIX = ".sluice-tmp-";

  private final Path root;
  private final URI rootUri;

  public LocalObjectStore(Path root) {
    this.root = root.toAbsolutePath().normalize();
    String uri = this.root.toUri().toString();
    this.rootUri = URI.create(uri.endsWith("/") ? uri : uri + "/");
  }

  @Override
  public URI root() {
    return rootUri;
  }

  /** The file behind a key. */
  public Path pathOf(String key) {
    return key.isEmpty() ? root : root.resolve(key);
  }

  @Override
  public CloseableIterator<ObjectStatus> list(String prefix, String startFrom) {
    int slash = prefix.lastIndexOf('/');
    String dirKey = slash < 0 ? "" : prefix.substring(0, slash);
    Path dir = pathOf(dirKey);
    if (!Files.isDirectory(dir)) {
      return CloseableIterator.of(List.<ObjectStatus>of().iterator());
    }
    List<ObjectStatus> out = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.forEach(p -> {
        String name = p.getFileName() == null ? "" : p.getFileName().toString();
        if (name.startsWith(TEMP_PREFIX)) {
          return;
        }
        String key = keyOf(p);
        if (!key.startsWith(prefix) || key.compareTo(startFrom) < 0) {
          return;
        }
        try {
          BasicFileAttributes attrs = Files.readAttributes(p, BasicFileAttributes.class);
          if (attrs.isRegularFile()) {
            out.add(new ObjectStatus(key, attrs.size(), attrs.lastModifiedTime().toMillis()));
          }
        } catch (NoSuchFileException gone) {
          // deleted while listing: not part of the listing
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException | UncheckedIOException e) {
      throw new StorageException("Listing " + uriOf(prefix) + " failed: " + e.getMessage(), e);
    }
    out.sort((a, b) -> a.key().compareTo(b.key()));
    return CloseableIterator.of(out.iterator());
  }

  private String keyOf(Path p) {
    String rel = root.relativize(p).toString();
    return p.getFileSystem().getSeparator().equals("/") ? rel : rel.replace(p.getFileSystem().getSeparator(), "/");
  }

  @Override
  public byte[] read(String key) {
    try {
      return Files.readAllBytes(pathOf(key));
    } catch (NoSuchFileException e) {
      throw notFound(key);
    } catch (IOException e) {
      throw new StorageException("Reading " + uriOf(key) + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public byte[] readRange(String key, long offset, int length) {
    try (FileChannel ch = FileChannel.open(pathOf(key), StandardOpenOption.READ)) {
      long size = ch.size();
      int n = (int) Math.max(0, Math.min(length, size - offset));
      ByteBuffer buf = ByteBuffer.allocate(n);
      while (buf.hasRemaining()) {
        if (ch.read(buf, offset + buf.position()) < 0) {
          break;
        }
      }
      return buf.position() == n ? buf.array() : java.util.Arrays.copyOf(buf.array(), buf.position());
    } catch (NoSuchFileException e) {
      throw notFound(key);
    } catch (IOException e) {
      throw new StorageException("Reading bytes " + offset + "+" + length + " of " + uriOf(key) + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public InputStream open(String key) {
    try {
      return Files.newInputStream(pathOf(key));
    } catch (NoSuchFileException e) {
      throw notFound(key);
    } catch (IOException e) {
      throw new StorageException("Opening " + uriOf(key) + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<ObjectStatus> status(String key) {
    try {
      BasicFileAttributes attrs = Files.readAttributes(pathOf(key), BasicFileAttributes.class);
      if (!attrs.isRegularFile()) {
        return Optional.empty();
      }
      return Optional.of(new ObjectStatus(key, attrs.size(), attrs.lastModifiedTime().toMillis()));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new StorageException("Reading the status of " + uriOf(key) + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void create(String key, byte[] data) {
    Path target = pathOf(key);
    Path temp = writeTemp(target, data);
    try {
      // A hard link is created atomically and fails if the target exists, across processes.
      Files.createLink(target, temp);
    } catch (FileAlreadyExistsException e) {
      throw new ObjectAlreadyExistsException("Cannot create " + uriOf(key) + ": it already exists");
    } catch (UnsupportedOperationException | IOException e) {
      // No fallback: a rename would silently replace a concurrent winner's commit.
      throw new StorageException("Creating " + uriOf(key) + " failed: the file system must support hard links"
          + " for atomic commits (" + e + ")", e);
    } finally {
      deleteQuietly(temp);
    }
  }

  @Override
  public void overwrite(String key, byte[] data) {
    Path target = pathOf(key);
    Path temp = writeTemp(target, data);
    try {
      moveReplacing(temp, target);
    } catch (IOException e) {
      throw new StorageException("Writing " + uriOf(key) + " failed: " + e.getMessage(), e);
    } finally {
      deleteQuietly(temp);
    }
  }

  @Override
  public OutputStream newOutputStream(String key) {
    Path target = pathOf(key);
    Path temp = tempFor(target);
    try {
      OutputStream out = Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      return new FilterOutputStream(out) {
        private boolean closed;

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
          if (closed) {
            return;
          }
          closed = true;
          try {
            super.close();
            moveReplacing(temp, target);
          } finally {
            deleteQuietly(temp);
          }
        }
      };
    } catch (IOException e) {
      deleteQuietly(temp);
      throw new StorageException("Opening " + uriOf(key) + " for writing failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void delete(String key) {
    try {
      Files.deleteIfExists(pathOf(key));
    } catch (IOException e) {
      throw new StorageException("Deleting " + uriOf(key) + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void deleteAll(Collection<String> keys) {
    for (String key : keys) {
      delete(key);
    }
  }

  private Path tempFor(Path target) {
    try {
      Files.createDirectories(target.getParent());
    } catch (IOException e) {
      throw new StorageException("Creating folder " + target.getParent() + " failed: " + e.getMessage(), e);
    }
    return target.resolveSibling(TEMP_PREFIX + target.getFileName() + "-" + UUID.randomUUID());
  }

  private Path writeTemp(Path target, byte[] data) {
    Path temp = tempFor(target);
    try {
      Files.write(temp, data, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      return temp;
    } catch (IOException e) {
      deleteQuietly(temp);
      throw new StorageException("Writing " + target.toUri() + " failed: " + e.getMessage(), e);
    }
  }

  private static void moveReplacing(Path temp, Path target) throws IOException {
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // a leftover temp file is skipped by listings and harmless
    }
  }

  private ObjectNotFoundException notFound(String key) {
    return new ObjectNotFoundException("Cannot read " + uriOf(key) + ": it does not exist");
  }

  @Override
  public String toString() {
    return "LocalObjectStore(" + root + ")";
  }
}
