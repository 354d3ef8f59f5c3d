package dev.sluice.table.storage;

import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The object store contract on LocalStack's S3, through Testcontainers, where a Docker engine exists; without one
 * every test is skipped with the reason. S3Proxy ({@link S3ObjectStoreIT}) stays the default S3 of the build.
 */
class S3ObjectStoreOnLocalStackIT extends ObjectStoreContract {
  /** Pinned: LocalStack's S3 supports {@code If-None-Match: *} on PutObject from 3.x on. */
  static final DockerImageName IMAGE = DockerImageName.parse("localstack/localstack:4.9");
  private static final String BUCKET = "sluice-localstack";
  private static LocalStackContainer localStack;

  private static Boolean docker;

  /**
   * Each test is skipped (and reported so, with the reason) when there is no Docker engine. Called from
   * {@link #newStore()}, which the contract's {@code @BeforeEach} calls before any of ours would run.
   */
  private static void startLocalStack() {
    if (docker == null) {
      docker = dockerAvailable();
    }
    Assumptions.assumeTrue(docker, "No Docker engine found (no DOCKER_HOST, no /var/run/docker.sock), so the"
        + " LocalStack S3 test is skipped; S3Proxy (S3ObjectStoreIT) covers S3 in this build. Start Docker to run it.");
    if (localStack != null) {
      return;
    }
    localStack = new LocalStackContainer(IMAGE).withServices(LocalStackContainer.Service.S3);
    localStack.start();
    try (S3Client s3 = S3Client.builder().endpointOverride(localStack.getEndpoint())
        .region(Region.of(localStack.getRegion())).forcePathStyle(true)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create(localStack.getAccessKey(), localStack.getSecretKey())))
        .build()) {
      s3.createBucket(b -> b.bucket(BUCKET));
    }
  }

  private static boolean dockerAvailable() {
    // Asking Testcontainers without an engine logs a page of errors: look for the usual sockets first.
    if (System.getenv("DOCKER_HOST") == null && !java.nio.file.Files.exists(java.nio.file.Path.of("/var/run/docker.sock"))
        && !java.nio.file.Files.exists(java.nio.file.Path.of(System.getProperty("user.home"), ".docker", "run",
            "docker.sock"))) {
      return false;
    }
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  @AfterAll
  static void stopLocalStack() {
    if (localStack != null) {
      localStack.stop();
    }
  }

  @Override
  protected ObjectStore newStore() {
    startLocalStack();
    return new S3ObjectStore(S3Options.of(BUCKET, "tables/" + UUID.randomUUID())
        .withEndpoint(localStack.getEndpoint())
        .withRegion(localStack.getRegion())
        .withPathStyle(true)
        .withCredentials(localStack.getAccessKey(), localStack.getSecretKey())
        .withListPageSize(3));
  }
}
