package dev.sluice.table.internal.parquet;

import dev.sluice.table.storage.ObjectStore;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} that writes one new object through {@link ObjectStore#newOutputStream}.
 * Data files have unique names, so create and createOrOverwrite behave the same.
 */
public final class StoreOutputFile implements OutputFile {
  private final ObjectStore store;
  private final String key;

  public StoreOutputFile(ObjectStore store, String key) {
    this.store = store;
    this.key = key;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) {
    return new CountingStream(store.newOutputStream(key));
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) {
    return create(blockSizeHint);
  }

  @Override
  public boolean supportsBlockSize() {
    return false;
  }

  @Override
  public long defaultBlockSize() {
    return 0;
  }

  @Override
  public String getPath() {
    return store.uriOf(key).toString();
  }

  private static final class CountingStream extends PositionOutputStream {
    private final OutputStream out;
    private long pos;

    CountingStream(OutputStream out) {
      this.out = out;
    }

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      pos++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      pos += len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
