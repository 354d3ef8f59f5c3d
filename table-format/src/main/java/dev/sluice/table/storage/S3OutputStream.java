package dev.sluice.table.storage;

import dev.sluice.table.exceptions.StorageException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Buffers one part in memory; small objects become one PutObject on close, larger ones a multipart
 * upload that completes on close. Nothing is visible under the key before close, and a failed stream
 * aborts its multipart upload so no parts are left behind (and billed).
 */
final class S3OutputStream extends OutputStream {
  private static final int INITIAL_BUFFER = 64 << 10;

  private final S3Client s3;
  private final String bucket;
  private final String key;
  private final URI uri;
  private final int partSize;
  private byte[] buffer;
  private int length;
  private String uploadId;
  private final List<CompletedPart> parts = new ArrayList<>();
  private boolean failed;
  private boolean closed;

  S3OutputStream(S3Client s3, String bucket, String key, URI uri, long partSize) {
    this.s3 = s3;
    this.bucket = bucket;
    this.key = key;
    this.uri = uri;
    this.partSize = (int) Math.min(partSize, Integer.MAX_VALUE - 8);
    this.buffer = new byte[Math.min(INITIAL_BUFFER, this.partSize)];
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    checkOpen();
    while (len > 0) {
      if (length == partSize) {
        uploadBufferedPart();
      }
      int n = Math.min(len, partSize - length);
      ensureCapacity(length + n);
      System.arraycopy(b, off, buffer, length, n);
      length += n;
      off += n;
      len -= n;
    }
  }

  private void ensureCapacity(int needed) {
    if (needed > buffer.length) {
      buffer = Arrays.copyOf(buffer, (int) Math.min(partSize, Math.max(needed, 2L * buffer.length)));
    }
  }

  private void uploadBufferedPart() throws IOException {
    try {
      if (uploadId == null) {
        uploadId = s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
      }
      int partNumber = parts.size() + 1;
      UploadPartResponse r = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(partNumber),
          RequestBody.fromBytes(Arrays.copyOf(buffer, length)));
      parts.add(CompletedPart.builder()
          .partNumber(partNumber)
          .eTag(r.eTag())
          .checksumCRC32(r.checksumCRC32())
          .checksumCRC32C(r.checksumCRC32C())
          .checksumCRC64NVME(r.checksumCRC64NVME())
          .checksumSHA1(r.checksumSHA1())
          .checksumSHA256(r.checksumSHA256())
          .build());
      length = 0;
    } catch (SdkException e) {
      fail(e);
      throw new IOException("Writing " + uri + " failed while uploading part " + (parts.size() + 1) + ": "
          + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (failed) {
      return;
    }
    try {
      if (uploadId == null) {
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(Arrays.copyOf(buffer, length)));
        return;
      }
      if (length > 0) {
        uploadBufferedPart();
      }
      s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
          .multipartUpload(m -> m.parts(parts)));
    } catch (SdkException e) {
      fail(e);
      throw new StorageException("Writing " + uri + " failed on close: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new StorageException(e.getMessage(), e.getCause());
    } finally {
      buffer = null;
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

  private void fail(SdkException cause) {
    failed = true;
    if (uploadId == null) {
      return;
    }
    try {
      s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
    } catch (SdkException e) {
      cause.addSuppressed(e);
    }
  }
}
