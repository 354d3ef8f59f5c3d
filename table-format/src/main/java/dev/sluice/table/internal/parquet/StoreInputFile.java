package dev.sluice.table.internal.parquet;

import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.storage.ObjectStore;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link InputFile} over an {@link ObjectStore} key. Reads are ranged and buffered in
 * chunks, so a footer costs one small request and a column chunk one larger one (S3 ranged GETs).
 */
public final class StoreInputFile implements InputFile {
  private static final int CHUNK = 4 << 20;

  private final ObjectStore store;
  private final String key;
  private long length;

  /** {@code length} may be -1 when unknown; it is then asked of the store. */
  public StoreInputFile(ObjectStore store, String key, long length) {
    this.store = store;
    this.key = key;
    this.length = length;
  }

  @Override
  public long getLength() {
    if (length < 0) {
      length = store.status(key)
          .orElseThrow(() -> new ObjectNotFoundException("Cannot read Parquet file " + store.uriOf(key) + ": it does not exist"))
          .size();
    }
    return length;
  }

  @Override
  public SeekableInputStream newStream() {
    return new ChunkedStream();
  }

  @Override
  public String toString() {
    return store.uriOf(key).toString();
  }

  private final class ChunkedStream extends SeekableInputStream {
    private long pos;
    private byte[] buffer = new byte[0];
    private long bufferStart;

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public void seek(long newPos) {
      pos = newPos;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      long total = getLength();
      if (pos >= total) {
        return -1;
      }
      if (pos < bufferStart || pos >= bufferStart + buffer.length) {
        fill(len);
      }
      int available = (int) (bufferStart + buffer.length - pos);
      int n = Math.min(len, available);
      System.arraycopy(buffer, (int) (pos - bufferStart), b, off, n);
      pos += n;
      return n;
    }

    private void fill(int wanted) {
      long total = getLength();
      int size = (int) Math.min(Math.max(wanted, CHUNK), total - pos);
      buffer = store.readRange(key, pos, size);
      bufferStart = pos;
    }

    @Override
    public void readFully(byte[] bytes) throws IOException {
      readFully(bytes, 0, bytes.length);
    }

    // A readFully is parquet asking for exactly the bytes it needs (a footer, a column chunk, the pages a row range
    // keeps): what the buffer doesn't hold is read as it is asked, not a read-ahead chunk (a few pages of a large
    // file cost 4 MiB each that way). Streamed reads (thrift-encoded indexes) still read ahead.
    @Override
    public void readFully(byte[] bytes, int start, int len) throws IOException {
      int done = 0;
      while (done < len) {
        if (pos < bufferStart || pos >= bufferStart + buffer.length) {
          int rest = len - done;
          if (pos + rest > getLength()) {
            throw new EOFException("Reached the end of " + key + " with " + (getLength() - pos) + " of " + rest
                + " bytes left to read");
          }
          byte[] read = store.readRange(key, pos, rest);
          if (read.length < rest) {
            throw new EOFException("Reached the end of " + key + " with " + (rest - read.length) + " bytes still to read");
          }
          System.arraycopy(read, 0, bytes, start + done, rest);
          pos += rest;
          return;
        }
        int n = read(bytes, start + done, len - done);
        if (n < 0) {
          throw new EOFException("Reached the end of " + key + " with " + (len - done) + " bytes still to read");
        }
        done += n;
      }
    }

    @Override
    public int read(ByteBuffer buf) throws IOException {
      int len = buf.remaining();
      byte[] tmp = new byte[len];
      int n = read(tmp, 0, len);
      if (n > 0) {
        buf.put(tmp, 0, n);
      }
      return n;
    }

    @Override
    public void readFully(ByteBuffer buf) throws IOException {
      byte[] tmp = new byte[buf.remaining()];
      readFully(tmp);
      buf.put(tmp);
    }
  }
}
