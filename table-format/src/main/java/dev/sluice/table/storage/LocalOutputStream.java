package dev.sluice.table.storage;

import dev.sluice.table.exceptions.StorageException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Writes a temporary file and moves it onto the key on close. A stream whose write failed publishes
 * nothing on close, so a half-written file never appears under its key.
 */
final class LocalOutputStream extends OutputStream {
  private static final int BUFFER = 64 << 10;

  private final FileChannel channel;
  private final Path temp;
  private final Path target;
  private final URI uri;
  private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
  private boolean failed;
  private boolean closed;

  LocalOutputStream(FileChannel channel, Path temp, Path target, URI uri) {
    this.channel = channel;
    this.temp = temp;
    this.target = target;
    this.uri = uri;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    checkOpen();
    try {
      if (len > buffer.remaining()) {
        drain();
      }
      if (len >= BUFFER) {
        writeFully(ByteBuffer.wrap(b, off, len));
      } else {
        buffer.put(b, off, len);
      }
    } catch (IOException | RuntimeException e) {
      failed = true;
      throw new IOException("Writing " + uri + " failed: " + e, e);
    }
  }

  @Override
  public void flush() throws IOException {
    checkOpen();
    try {
      drain();
    } catch (IOException e) {
      failed = true;
      throw new IOException("Writing " + uri + " failed: " + e, e);
    }
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      try (channel) {
        if (failed) {
          return;
        }
        drain();
        channel.force(true);
      }
      LocalObjectStore.moveReplacing(temp, target);
    } catch (IOException e) {
      throw new StorageException("Writing " + uri + " failed while publishing it: " + e, e);
    } finally {
      LocalObjectStore.deleteQuietly(temp);
    }
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException("Cannot write " + uri + ": the stream is closed");
    }
    if (failed) {
      throw new IOException("Cannot write " + uri + ": an earlier write failed, so the object will not be published");
    }
  }

  private void drain() throws IOException {
    buffer.flip();
    writeFully(buffer);
    buffer.clear();
  }

  private void writeFully(ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      channel.write(b);
    }
  }
}
