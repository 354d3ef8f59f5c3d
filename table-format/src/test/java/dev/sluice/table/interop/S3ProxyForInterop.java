package dev.sluice.table.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An in-process S3Proxy 4.1.0 server with an in-memory blob store, for the interop tests only (the
 * shared fixture is {@code dev.sluice.table.testing.S3ProxyServer}; the two are to be merged).
 * Buckets and objects are created with the AWS SDK v2, as a real deployment would.
 */
final class S3ProxyForInterop implements AutoCloseable {
  static final String ACCESS_KEY = "interop-access";
  static final String SECRET_KEY = "interop-secret";
  private static final long START_TIMEOUT_MS = 30_000;

  private final BlobStore blobStore;
  private final S3Proxy proxy;
  private final String endpoint;
  private final S3Client client;

  private S3ProxyForInterop(BlobStore blobStore, S3Proxy proxy) {
    this.blobStore = blobStore;
    this.proxy = proxy;
    this.endpoint = "http://127.0.0.1:" + proxy.getPort();
    this.client = S3Client.builder()
        .endpointOverride(URI.create(endpoint))
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
        // The SDK's default CRC trailers on every PUT are not needed against a local server.
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .httpClientBuilder(ApacheHttpClient.builder())
        .build();
  }

  /** Starts a server on a free loopback port; the caller closes it. */
  static S3ProxyForInterop start() throws Exception {
    BlobStore blobStore = BlobStores.create("transient", new Properties());
    S3Proxy proxy = S3Proxy.builder()
        .blobStore(blobStore)
        .endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
        .build();
    proxy.start();
    long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
    while (!"STARTED".equals(proxy.getState())) {
      if (System.currentTimeMillis() > deadline) {
        proxy.stop();
        blobStore.close();
        throw new IllegalStateException("S3Proxy did not start within " + START_TIMEOUT_MS
            + " ms (state " + proxy.getState() + "); check the log for a port or Jetty error.");
      }
      Thread.sleep(10);
    }
    return new S3ProxyForInterop(blobStore, proxy);
  }

  /** The server's {@code http://127.0.0.1:port} endpoint. */
  String endpoint() {
    return endpoint;
  }

  /** An SDK client for the server, closed with it. */
  S3Client client() {
    return client;
  }

  void createBucket(String bucket) {
    client.createBucket(b -> b.bucket(bucket));
  }

  /**
   * Uploads every file below {@code dir} (hidden {@code .crc} files included, as a copy of the
   * table would have them) to {@code bucket} under {@code prefix}, keeping relative paths.
   *
   * @return the number of objects uploaded
   */
  int uploadDirectory(Path dir, String bucket, String prefix) {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files = walk.filter(Files::isRegularFile).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + dir + " to upload it to S3Proxy: " + e.getMessage(), e);
    }
    for (Path file : files) {
      String key = prefix + "/" + dir.relativize(file).toString().replace('\\', '/');
      client.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromFile(file));
    }
    return files.size();
  }

  @Override
  public void close() throws Exception {
    try {
      client.close();
      proxy.stop();
    } finally {
      blobStore.close();
    }
  }
}
