package dev.sluice.table.storage;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.exceptions.ObjectAlreadyExistsException;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.exceptions.StorageException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * An object store on a local (or mounted) file system. {@link #create} is atomic across processes:
 * the bytes go to a temporary file first, which is then hard-linked to the key (linking fails if the
 * key exists), so no reader ever sees a partial commit and exactly one of several creators wins.
 * Files are forced to disk before they become visible, so a crash never leaves a committed but
 * empty file.
 */
public final class LocalObjectStore implements ObjectStore {
  /** Temporary files start with this; listings skip them and keys may not use it. */
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

  /**
   * The file behind a key.
   *
   * @throws IllegalArgumentException if the key is not valid (see {@link ObjectStore})
   */
  public Path pathOf(String key) {
    StoragePaths.checkKey(key);
    for (String segment : key.split("/")) {
      if (segment.startsWith(TEMP_PREFIX)) {
        throw new IllegalArgumentException("Object key '" + key + "' is invalid: names starting with '"
            + TEMP_PREFIX + "' are reserved for the local store's temporary files");
      }
    }
    return root.resolve(key);
  }

  @Override
  public CloseableIterator<ObjectStatus> list(String prefix, String startFrom) {
    int slash = prefix.lastIndexOf('/');
    Path dir = slash <= 0 ? root : root.resolve(prefix.substring(0, slash)).normalize();
    if (!dir.startsWith(root)) {
      throw new IllegalArgumentException("Cannot list prefix '" + prefix + "' of " + rootUri + ": it leads outside the store");
    }
    if (!Files.isDirectory(dir)) {
      return CloseableIterator.of(List.<ObjectStatus>of().iterator());
    }
    List<ObjectStatus> out = new ArrayList<>();
    try {
      Files.walkFileTree(dir, new ListingVisitor(dir, prefix, startFrom, out));
    } catch (IOException e) {
      throw new StorageException("Listing " + root.resolve(prefix).toUri() + " failed: " + reason(e), e);
    }
    out.sort((a, b) -> StoragePaths.compareKeys(a.key(), b.key()));
    return CloseableIterator.of(out.iterator());
  }

  /** Collects the listing; skips temp files and folders that cannot hold a key in range. */
  private final class ListingVisitor extends SimpleFileVisitor<Path> {
    private final Path start;
    private final String prefix;
    private final String startFrom;
    private final List<ObjectStatus> out;

    ListingVisitor(Path start, String prefix, String startFrom, List<ObjectStatus> out) {
      this.start = start;
      this.prefix = prefix;
      this.startFrom = startFrom;
      this.out = out;
    }

    @Override
    public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
      if (d.equals(start)) {
        return FileVisitResult.CONTINUE;
      }
      String folder = keyOf(d) + "/";
      boolean overlapsPrefix = folder.startsWith(prefix) || prefix.startsWith(folder);
      // every key below the folder sorts before startFrom unless the folder is a prefix of it
      boolean allBeforeStart = StoragePaths.compareKeys(folder, startFrom) < 0 && !startFrom.startsWith(folder);
      boolean temp = d.getFileName().toString().startsWith(TEMP_PREFIX);
      return overlapsPrefix && !allBeforeStart && !temp ? FileVisitResult.CONTINUE : FileVisitResult.SKIP_SUBTREE;
    }

    @Override
    public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
      if (f.getFileName().toString().startsWith(TEMP_PREFIX)) {
        return FileVisitResult.CONTINUE;
      }
      String key = keyOf(f);
      if (!key.startsWith(prefix) || StoragePaths.compareKeys(key, startFrom) < 0) {
        return FileVisitResult.CONTINUE;
      }
      try {
        BasicFileAttributes target = attrs.isSymbolicLink() ? Files.readAttributes(f, BasicFileAttributes.class) : attrs;
        if (target.isRegularFile()) {
          out.add(new ObjectStatus(key, target.size(), target.lastModifiedTime().toMillis()));
        }
      } catch (NoSuchFileException danglingLink) {
        // a link to nothing is not an object
      }
      return FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFileFailed(Path f, IOException e) throws IOException {
      if (e instanceof NoSuchFileException) {
        return FileVisitResult.CONTINUE; // deleted while listing: not part of the listing
      }
      throw e;
    }

    @Override
    public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
      if (e != null && !(e instanceof NoSuchFileException)) {
        throw e;
      }
      return FileVisitResult.CONTINUE;
    }
  }

  private String keyOf(Path p) {
    String rel = root.relativize(p).toString();
    String separator = p.getFileSystem().getSeparator();
    return separator.equals("/") ? rel : rel.replace(separator, "/");
  }

  @Override
  public byte[] read(String key) {
    Path path = pathOf(key);
    try {
      return Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      throw notFound(key);
    } catch (IOException e) {
      throw new StorageException("Reading " + uriOf(key) + " failed: " + reason(e), e);
    }
  }

  @Override
  public byte[] readRange(String key, long offset, int length) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("Cannot read bytes " + offset + "+" + length + " of " + uriOf(key)
          + ": offset and length must not be negative");
    }
    Path path = pathOf(key);
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      int n = (int) Math.max(0, Math.min(length, ch.size() - offset));
      ByteBuffer buf = ByteBuffer.allocate(n);
      while (buf.hasRemaining() && ch.read(buf, offset + buf.position()) >= 0) {
        // the file may shrink concurrently (overwrite replaces it, so this channel keeps the old one)
      }
      return buf.position() == n ? buf.array() : java.util.Arrays.copyOf(buf.array(), buf.position());
    } catch (NoSuchFileException e) {
      throw notFound(key);
    } catch (IOException e) {
      throw new StorageException("Reading bytes " + offset + "+" + length + " of " + uriOf(key) + " failed: "
          + reason(e), e);
    }
  }

  @Override
  public InputStream open(String key) {
    Path path = pathOf(key);
    try {
      return Files.newInputStream(path);
    } catch (NoSuchFileException e) {
      throw notFound(key);
    } catch (IOException e) {
      throw new StorageException("Opening " + uriOf(key) + " failed: " + reason(e), e);
    }
  }

  @Override
  public Optional<ObjectStatus> status(String key) {
    Path path = pathOf(key);
    try {
      BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class);
      if (!attrs.isRegularFile()) {
        return Optional.empty();
      }
      return Optional.of(new ObjectStatus(key, attrs.size(), attrs.lastModifiedTime().toMillis()));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new StorageException("Reading the status of " + uriOf(key) + " failed: " + reason(e), e);
    }
  }

  @Override
  public void create(String key, byte[] data) {
    Path target = pathOf(key);
    Path temp = writeTemp(key, target, data);
    try {
      // A hard link is created atomically and fails if the target exists, across processes.
      Files.createLink(target, temp);
      forceDirectory(target.getParent());
    } catch (FileAlreadyExistsException e) {
      throw new ObjectAlreadyExistsException("Cannot create " + uriOf(key) + ": it already exists");
    } catch (UnsupportedOperationException e) {
      // No fallback: a rename would silently replace a concurrent winner's commit.
      throw new StorageException("Creating " + uriOf(key) + " failed: the file system does not support hard links,"
          + " which atomic commits need; put the table on a local POSIX file system or on S3", e);
    } catch (IOException e) {
      throw new StorageException("Creating " + uriOf(key) + " failed: " + e, e);
    } finally {
      deleteQuietly(temp);
    }
  }

  @Override
  public void overwrite(String key, byte[] data) {
    Path target = pathOf(key);
    Path temp = writeTemp(key, target, data);
    try {
      moveReplacing(temp, target);
    } catch (IOException e) {
      throw new StorageException("Writing " + uriOf(key) + " failed: " + e, e);
    } finally {
      deleteQuietly(temp);
    }
  }

  @Override
  public OutputStream newOutputStream(String key) {
    Path target = pathOf(key);
    Path temp = tempFor(key, target);
    try {
      FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      return new LocalOutputStream(channel, temp, target, uriOf(key));
    } catch (IOException e) {
      deleteQuietly(temp);
      throw new StorageException("Opening " + uriOf(key) + " for writing failed: " + e, e);
    }
  }

  @Override
  public void delete(String key) {
    Path path = pathOf(key);
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new StorageException("Deleting " + uriOf(key) + " failed: " + e, e);
    }
  }

  @Override
  public void deleteAll(Collection<String> keys) {
    for (String key : keys) {
      delete(key);
    }
  }

  private Path tempFor(String key, Path target) {
    try {
      Files.createDirectories(target.getParent());
    } catch (IOException e) {
      throw new StorageException("Writing " + uriOf(key) + " failed: cannot create its folder: " + e, e);
    }
    return target.resolveSibling(TEMP_PREFIX + target.getFileName() + "-" + UUID.randomUUID());
  }

  private Path writeTemp(String key, Path target, byte[] data) {
    Path temp = tempFor(key, target);
    try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer buf = ByteBuffer.wrap(data);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
      return temp;
    } catch (IOException e) {
      deleteQuietly(temp);
      throw new StorageException("Writing " + uriOf(key) + " failed: " + e, e);
    }
  }

  static void moveReplacing(Path temp, Path target) throws IOException {
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Makes a new directory entry durable; not every platform can open a directory, which is then skipped. */
  private static void forceDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException | UnsupportedOperationException ignored) {
      // best effort: the link itself has succeeded
    }
  }

  static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // a leftover temp file is skipped by listings and harmless
    }
  }

  /**
   * Why an I/O call failed. The JDK's message for a permission problem is only the path, so it is named here,
   * with the fix.
   */
  static String reason(IOException e) {
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied on " + e.getMessage() + ": the user running Sluice cannot access it; fix the"
          + " file's or its folder's permissions (e.g. chmod u+r, or chown to that user)";
    }
    return e.getMessage();
  }

  private ObjectNotFoundException notFound(String key) {
    return new ObjectNotFoundException("Cannot read " + uriOf(key) + ": it does not exist");
  }

  @Override
  public String toString() {
    return "LocalObjectStore(" + root + ")";
  }
}
