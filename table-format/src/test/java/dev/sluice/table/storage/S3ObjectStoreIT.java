package dev.sluice.table.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.testing.S3ProxyServer;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/** The object store contract on S3Proxy, with a small list page size so every listing pages. */
class S3ObjectStoreIT extends ObjectStoreContract {
  private static final int PART = (int) S3Options.MIN_PART_SIZE;
  private static S3ProxyServer server;
  private static S3Client raw;
  private String prefix;

  @BeforeAll
  static void startServer() {
    server = S3ProxyServer.start();
    raw = S3Client.builder()
        .endpointOverride(server.endpoint())
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create(server.accessKey(), server.secretKey())))
        .build();
  }

  @AfterAll
  static void stopServer() {
    raw.close();
    server.close();
  }

  @Override
  protected ObjectStore newStore() {
    prefix = "tables/" + UUID.randomUUID();
    return new S3ObjectStore(server.s3Options(prefix).withListPageSize(3).withPartSize(PART));
  }

  private List<MultipartUpload> uploadsInProgress() {
    return raw.listMultipartUploads(b -> b.bucket(server.bucket()).prefix(prefix + "/")).uploads();
  }

  @Test
  void rootIsTheBucketAndPrefix() {
    assertThat(store.root().toString()).isEqualTo("s3://" + server.bucket() + "/" + prefix + "/");
    store.create("k", bytes("v"));
    assertThat(raw.getObjectAsBytes(b -> b.bucket(server.bucket()).key(prefix + "/k")).asUtf8String()).isEqualTo("v");
  }

  @Test
  void largeOutputStreamUsesAMultipartUploadCompletedOnClose() throws Exception {
    byte[] data = new byte[2 * PART + 12345];
    new Random(3).nextBytes(data);

    OutputStream out = store.newOutputStream("data/big.parquet");
    out.write(data, 0, PART + 1);
    assertThat(uploadsInProgress()).hasSize(1);
    out.write(data, PART + 1, data.length - PART - 1);
    assertThat(store.status("data/big.parquet")).isEmpty();
    out.close();

    assertThat(uploadsInProgress()).isEmpty();
    assertThat(store.status("data/big.parquet").orElseThrow().size()).isEqualTo(data.length);
    assertThat(store.read("data/big.parquet")).isEqualTo(data);
    assertThat(store.readRange("data/big.parquet", PART - 2, 4)).containsExactly(data[PART - 2], data[PART - 1],
        data[PART], data[PART + 1]);
  }

  @Test
  void outputStreamOfExactlyOnePartIsASinglePut() throws Exception {
    byte[] data = new byte[PART];
    new Random(4).nextBytes(data);

    try (OutputStream out = store.newOutputStream("data/one-part.parquet")) {
      out.write(data);
      assertThat(uploadsInProgress()).isEmpty();
    }

    assertThat(store.read("data/one-part.parquet")).isEqualTo(data);
  }

  @Test
  void failedMultipartStreamAbortsTheUploadAndPublishesNothing() throws Exception {
    String key = prefix + "/data/broken.parquet";
    AtomicInteger partUploads = new AtomicInteger();
    // S3Proxy accepts parts of aborted uploads, so the failure is injected in front of the client
    S3Client failSecondPart = (S3Client) Proxy.newProxyInstance(S3Client.class.getClassLoader(),
        new Class<?>[] {S3Client.class}, (proxy, method, args) -> {
          if (method.getName().equals("uploadPart") && partUploads.incrementAndGet() == 2) {
            throw SdkClientException.create("injected: connection reset");
          }
          try {
            return method.invoke(raw, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    URI uri = store.uriOf("data/broken.parquet");
    OutputStream out = new S3OutputStream(failSecondPart, server.bucket(), key, uri, PART);
    out.write(new byte[PART + 1]);
    assertThat(uploadsInProgress()).hasSize(1);

    assertThatThrownBy(() -> out.write(new byte[PART]))
        .isInstanceOf(IOException.class)
        .hasMessage("Writing " + uri + " failed while uploading part 2: injected: connection reset");
    assertThatThrownBy(() -> out.write(1))
        .isInstanceOf(IOException.class)
        .hasMessage("Cannot write " + uri + ": an earlier write failed, so the object will not be published");
    out.close();

    assertThat(uploadsInProgress()).isEmpty();
    assertThat(store.status("data/broken.parquet")).isEmpty();
  }

  @Test
  void listsAndDeletesMoreThanOneThousandKeysWithTheDefaultPageSize() {
    try (ObjectStore big = server.newStore(prefix + "-big")) {
      List<String> keys = new ArrayList<>();
      IntStream.range(0, 1005).mapToObj(i -> String.format("many/%05d", i)).forEach(keys::add);
      keys.parallelStream().forEach(k -> big.overwrite(k, new byte[] {1}));

      assertThat(big.list("many/").toList()).extracting(ObjectStatus::key).containsExactlyElementsOf(keys);
      assertThat(big.list("many/", "many/00999").toList()).extracting(ObjectStatus::key)
          .containsExactlyElementsOf(keys.subList(999, 1005));

      big.deleteAll(keys);
      assertThat(big.list("").toList()).isEmpty();
    }
  }

  @Test
  void wrongCredentialsFailWithAHint() {
    S3Options wrong = server.s3Options(prefix).withCredentials(server.accessKey(), "wrong").withMaxAttempts(1);
    try (ObjectStore bad = new S3ObjectStore(wrong)) {
      assertThatThrownBy(() -> bad.create("k", bytes("v")))
          .isInstanceOf(StorageException.class)
          .hasMessageStartingWith("Creating " + bad.uriOf("k") + " failed: HTTP 403 ")
          .hasMessageEndingWith("(check the credentials and that they may access bucket " + server.bucket() + ")");
    }
  }

  @Test
  void missingBucketIsNamedInTheError() {
    S3Options options = server.s3Options("p");
    S3Options noBucket = new S3Options("no-such-bucket", "p", options.endpoint(), options.region(), true,
        options.accessKeyId(), options.secretAccessKey(), 1, options.partSize(), 1000, options.timeouts());
    try (ObjectStore bad = new S3ObjectStore(noBucket)) {
      assertThatThrownBy(() -> bad.read("k"))
          .isInstanceOf(StorageException.class)
          .hasMessageStartingWith("Reading s3://no-such-bucket/p/k failed: HTTP 404 NoSuchBucket")
          .hasMessageEndingWith("(bucket no-such-bucket does not exist: create it or fix the bucket name)");
    }
  }
}
