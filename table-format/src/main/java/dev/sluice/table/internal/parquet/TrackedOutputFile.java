package dev.sluice.table.internal.parquet;

import java.io.IOException;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/** Remembers the stream it creates, for the exact object size and for abandoning the object. */
final class TrackedOutputFile implements OutputFile {
  private final OutputFile delegate;
  private PositionOutputStream stream;

  TrackedOutputFile(OutputFile delegate) {
    this.delegate = delegate;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) throws IOException {
    stream = delegate.create(blockSizeHint);
    return stream;
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
    stream = delegate.createOrOverwrite(blockSizeHint);
    return stream;
  }

  @Override
  public boolean supportsBlockSize() {
    return delegate.supportsBlockSize();
  }

  @Override
  public long defaultBlockSize() {
    return delegate.defaultBlockSize();
  }

  @Override
  public String getPath() {
    return delegate.getPath();
  }

  long length() {
    try {
      return stream.getPos();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  void closeQuietly() {
    if (stream != null) {
      try {
        stream.close();
      } catch (IOException | RuntimeException ignored) {
        // The object is deleted next; a failed close only means there is less to delete.
      }
    }
  }
}
