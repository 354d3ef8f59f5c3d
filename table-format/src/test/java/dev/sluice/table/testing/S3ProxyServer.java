package dev.sluice.table.testing;

import dev.sluice.table.storage.S3ObjectStore;
import dev.sluice.table.storage.S3Options;
import java.net.URI;
import java.util.Properties;
import java.util.UUID;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;

/**
 * An in-process S3Proxy 4.1.0 server on 127.0.0.1 with an in-memory blob store and one bucket. It
 * takes about a second to start: start one per test class ({@code @BeforeAll}) and give each test
 * its own key prefix.
 */
public final class S3ProxyServer implements AutoCloseable {
  private static final long START_TIMEOUT_MS = 30_000;

  private final String accessKey = "sluice-access";
  private final String secretKey = "sluice-secret-" + UUID.randomUUID();
  private final String bucket;
  private final BlobStore blobStore;
  private final S3Proxy proxy;
  private final URI endpoint;

  private S3ProxyServer(String bucket) throws Exception {
    this.bucket = bucket;
    this.blobStore = BlobStores.create("transient", new Properties());
    this.proxy = S3Proxy.builder()
        .blobStore(blobStore)
        .endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
        .build();
    proxy.start();
    long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
    while (!"STARTED".equals(proxy.getState())) {
      if (System.currentTimeMillis() > deadline) {
        proxy.stop();
        throw new IllegalStateException("S3Proxy did not start within " + START_TIMEOUT_MS + " ms (state "
            + proxy.getState() + ")");
      }
      Thread.sleep(10);
    }
    this.endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
    blobStore.createContainer(bucket);
  }

  /** Starts a server with a bucket named "sluice-test". */
  public static S3ProxyServer start() {
    return start("sluice-test");
  }

  /** Starts a server with the given bucket. */
  public static S3ProxyServer start(String bucket) {
    try {
      return new S3ProxyServer(bucket);
    } catch (Exception e) {
      throw new IllegalStateException("Starting S3Proxy failed: " + e, e);
    }
  }

  public URI endpoint() {
    return endpoint;
  }

  public String bucket() {
    return bucket;
  }

  public String accessKey() {
    return accessKey;
  }

  public String secretKey() {
    return secretKey;
  }

  /** Options for a store below {@code prefix} of this server's bucket (path style, static keys, us-east-1). */
  public S3Options s3Options(String prefix) {
    return S3Options.of(bucket, prefix)
        .withEndpoint(endpoint)
        .withRegion("us-east-1")
        .withPathStyle(true)
        .withCredentials(accessKey, secretKey);
  }

  /** A store below {@code prefix}; the caller closes it. */
  public S3ObjectStore newStore(String prefix) {
    return new S3ObjectStore(s3Options(prefix));
  }

  @Override
  public void close() {
    try {
      proxy.stop();
    } catch (Exception e) {
      throw new IllegalStateException("Stopping S3Proxy on " + endpoint + " failed: " + e, e);
    } finally {
      blobStore.close();
    }
  }
}
