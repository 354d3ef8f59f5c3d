package dev.sluice.table.storage;

import java.io.FilterInputStream;
import java.io.IOException;
import software.amazon.awssdk.core.ResponseInputStream;

/**
 * Aborts the HTTP connection when closed before the end: draining the rest of a large object just
 * to reuse the connection costs more than opening a new one.
 */
final class S3InputStream extends FilterInputStream {
  private final ResponseInputStream<?> response;
  private boolean eof;

  S3InputStream(ResponseInputStream<?> response) {
    super(response);
    this.response = response;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    eof |= b < 0;
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = super.read(b, off, len);
    eof |= n < 0;
    return n;
  }

  @Override
  public void close() throws IOException {
    if (!eof) {
      response.abort();
    }
    super.close();
  }
}
