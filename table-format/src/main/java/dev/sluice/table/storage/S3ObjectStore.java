package dev.sluice.table.storage;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.exceptions.ObjectAlreadyExistsException;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.exceptions.StorageOutcomeUnknownException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * An object store on an S3 bucket (or an S3-compatible server) below a key prefix. {@link #create}
 * is a conditional {@code PutObject} with {@code If-None-Match: *}, which S3 makes atomic.
 *
 * <p>Ordinary calls are retried by the SDK (throttling, 5xx, I/O errors) up to
 * {@link S3Options#maxAttempts()}. {@code create} retries itself instead, because after a lost
 * response a retried conditional put answers 412 even when the first attempt wrote the object: it
 * then reports {@link StorageOutcomeUnknownException} rather than a false "already exists".
 */
public final class S3ObjectStore implements ObjectStore {
  /** S3's limit of keys per DeleteObjects request. */
  static final int DELETE_BATCH = 1000;
  private static final Logger LOG = LoggerFactory.getLogger(S3ObjectStore.class);
  private static final long BACKOFF_BASE_MS = 50;
  private static final long BACKOFF_MAX_MS = 2_000;

  private final S3Options options;
  private final URI root;
  private final String keyPrefix;
  private final SdkHttpClient http;
  private final AwsCredentialsProvider credentials;
  private final S3Client s3;
  /** For create: no SDK retries, see the class comment. */
  private final S3Client s3Once;

  /**
   * Connects lazily (the first request opens a connection).
   *
   * @throws StorageException if the SDK cannot be configured, e.g. no region can be found
   */
  // ApacheHttpClient is deprecated in favour of apache5-client, which table-format does not depend on yet.
  public S3ObjectStore(S3Options options) {
    this(options, java.util.function.UnaryOperator.identity());
  }

  /**
   * A store whose HTTP client is wrapped, below the SDK's retries (fault injection in tests, request metrics).
   *
   * @throws StorageException if the SDK cannot be configured, e.g. no region can be found
   */
  @SuppressWarnings("deprecation")
  public S3ObjectStore(S3Options options, java.util.function.UnaryOperator<SdkHttpClient> httpWrapper) {
    this.options = options;
    this.root = options.rootUri();
    this.keyPrefix = options.keyPrefix().isEmpty() ? "" : options.keyPrefix() + "/";
    this.http = httpWrapper.apply(ApacheHttpClient.builder()
        .connectionTimeout(options.timeouts().connection())
        .socketTimeout(options.timeouts().socket())
        .build());
    this.credentials = options.accessKeyId() == null
        ? DefaultCredentialsProvider.builder().build()
        : StaticCredentialsProvider.create(AwsBasicCredentials.create(options.accessKeyId(), options.secretAccessKey()));
    try {
      this.s3 = client(options.maxAttempts());
      this.s3Once = client(1);
    } catch (SdkException e) {
      http.close();
      throw new StorageException("Configuring the S3 client for " + root + " failed: " + e.getMessage()
          + " (set the region option if no AWS region is configured in the environment)", e);
    }
  }

  private S3Client client(int maxAttempts) {
    S3ClientBuilder b = S3Client.builder()
        .httpClient(http)
        .credentialsProvider(credentials)
        .overrideConfiguration(c -> c
            .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(maxAttempts).build())
            .apiCallAttemptTimeout(options.timeouts().attempt())
            .addExecutionInterceptor(new S3RetryLog(maxAttempts, options.timeouts())));
    if (options.region() != null) {
      b.region(Region.of(options.region()));
    } else if (options.endpoint() != null) {
      b.region(Region.US_EAST_1);
    }
    if (options.endpoint() != null) {
      b.endpointOverride(options.endpoint());
    }
    // Path style only here: setting it in S3Configuration as well makes the builder throw.
    b.forcePathStyle(options.pathStyle());
    return b.build();
  }

  /** The options this store was opened with. */
  public S3Options options() {
    return options;
  }

  @Override
  public URI root() {
    return root;
  }

  String fullKey(String key) {
    return keyPrefix + StoragePaths.checkKey(key);
  }

  @Override
  public CloseableIterator<ObjectStatus> list(String prefix, String startFrom) {
    return new S3Listing(s3, options.bucket(), keyPrefix, prefix, startFrom, options.listPageSize(), this::uriOfPrefix);
  }

  private URI uriOfPrefix(String prefix) {
    return prefix.isEmpty() ? root : root.resolve(StoragePaths.encodeKeyForUri(prefix));
  }

  @Override
  public byte[] read(String key) {
    String full = fullKey(key);
    try {
      ResponseBytes<GetObjectResponse> bytes = s3.getObjectAsBytes(b -> b.bucket(options.bucket()).key(full));
      return bytes.asByteArrayUnsafe();
    } catch (SdkException e) {
      throw failure("Reading", key, e);
    }
  }

  @Override
  public byte[] readRange(String key, long offset, int length) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("Cannot read bytes " + offset + "+" + length + " of " + uriOf(key)
          + ": offset and length must not be negative");
    }
    String full = fullKey(key);
    if (length == 0) {
      status(key).orElseThrow(() -> notFound(key));
      return new byte[0];
    }
    String range = "bytes=" + offset + "-" + (offset + length - 1);
    try {
      return s3.getObjectAsBytes(b -> b.bucket(options.bucket()).key(full).range(range)).asByteArrayUnsafe();
    } catch (S3Exception e) {
      if (e.statusCode() == 416) {
        return new byte[0]; // the range starts at or after the end of the object
      }
      throw failure("Reading bytes " + offset + "+" + length + " of", key, e);
    } catch (SdkException e) {
      throw failure("Reading bytes " + offset + "+" + length + " of", key, e);
    }
  }

  @Override
  public InputStream open(String key) {
    String full = fullKey(key);
    try {
      ResponseInputStream<GetObjectResponse> in = s3.getObject(b -> b.bucket(options.bucket()).key(full));
      return new S3InputStream(in);
    } catch (SdkException e) {
      throw failure("Opening", key, e);
    }
  }

  @Override
  public Optional<ObjectStatus> status(String key) {
    String full = fullKey(key);
    try {
      HeadObjectResponse head = s3.headObject(b -> b.bucket(options.bucket()).key(full));
      return Optional.of(new ObjectStatus(key, head.contentLength(), head.lastModified().toEpochMilli()));
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return Optional.empty();
      }
      throw failure("Reading the status of", key, e);
    } catch (SdkException e) {
      throw failure("Reading the status of", key, e);
    }
  }

  @Override
  public void create(String key, byte[] data) {
    String full = fullKey(key);
    boolean mayHaveWritten = false;
    SdkException last = null;
    for (int attempt = 1; attempt <= options.maxAttempts(); attempt++) {
      if (attempt > 1) {
        LOG.warn("S3 PutObject (create) of {} at {}: attempt {} of {} failed ({}); retrying", uriOf(key), endpoint(),
            attempt - 1, options.maxAttempts(), describe(last));
        sleepBeforeRetry(attempt, key, mayHaveWritten, last);
      }
      try {
        s3Once.putObject(b -> b.bucket(options.bucket()).key(full).ifNoneMatch("*"), RequestBody.fromBytes(data));
        return;
      } catch (S3Exception e) {
        int status = e.statusCode();
        if (status == 412) {
          if (mayHaveWritten) {
            throw outcomeUnknown(key, e);
          }
          throw new ObjectAlreadyExistsException("Cannot create " + uriOf(key) + ": it already exists", e);
        }
        if (!isRetryable(status)) {
          throw failure("Creating", key, e);
        }
        // 409 ConditionalRequestConflict, 429 and 503 mean the request was refused; other 5xx may hide a write.
        mayHaveWritten |= status >= 500 && status != 503;
        last = e;
      } catch (SdkClientException e) {
        mayHaveWritten |= !neverSent(e);
        last = e;
      } catch (SdkException e) {
        throw failure("Creating", key, e);
      }
    }
    if (mayHaveWritten) {
      throw outcomeUnknown(key, last);
    }
    throw new StorageException("Creating " + uriOf(key) + " failed after " + options.maxAttempts() + " attempts: "
        + describe(last) + "; retry later or raise the max-attempts option", last);
  }

  private static boolean isRetryable(int status) {
    return status == 409 || status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
  }

  /** True when the connection failed before any byte of the request could reach the server. */
  private static boolean neverSent(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException || t instanceof UnknownHostException
          || t.getClass().getSimpleName().equals("ConnectTimeoutException")) {
        return true;
      }
    }
    return false;
  }

  private void sleepBeforeRetry(int attempt, String key, boolean mayHaveWritten, SdkException last) {
    long cap = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS << Math.min(attempt - 2, 10));
    try {
      Thread.sleep(cap / 2 + ThreadLocalRandom.current().nextLong(cap / 2 + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      if (mayHaveWritten) {
        throw outcomeUnknown(key, last);
      }
      throw new StorageException("Creating " + uriOf(key) + " was interrupted while waiting to retry after: "
          + describe(last), last);
    }
  }

  private StorageOutcomeUnknownException outcomeUnknown(String key, SdkException cause) {
    return new StorageOutcomeUnknownException("Creating " + uriOf(key) + " may or may not have taken effect: "
        + describe(cause) + "; read the object back to learn whether this writer created it", cause);
  }

  @Override
  public void overwrite(String key, byte[] data) {
    String full = fullKey(key);
    try {
      s3.putObject(b -> b.bucket(options.bucket()).key(full), RequestBody.fromBytes(data));
    } catch (SdkException e) {
      throw failure("Writing", key, e);
    }
  }

  @Override
  public OutputStream newOutputStream(String key) {
    return new S3OutputStream(s3, options.bucket(), fullKey(key), uriOf(key), options.partSize());
  }

  @Override
  public void delete(String key) {
    String full = fullKey(key);
    try {
      s3.deleteObject(b -> b.bucket(options.bucket()).key(full));
    } catch (S3Exception e) {
      if (e.statusCode() != 404) {
        throw failure("Deleting", key, e);
      }
    } catch (SdkException e) {
      throw failure("Deleting", key, e);
    }
  }

  @Override
  public void deleteAll(Collection<String> keys) {
    List<String> all = new ArrayList<>(new LinkedHashSet<>(keys));
    for (int from = 0; from < all.size(); from += DELETE_BATCH) {
      deleteBatch(all.subList(from, Math.min(all.size(), from + DELETE_BATCH)));
    }
  }

  private void deleteBatch(List<String> batch) {
    List<ObjectIdentifier> ids = batch.stream()
        .map(k -> ObjectIdentifier.builder().key(fullKey(k)).build())
        .collect(Collectors.toList());
    DeleteObjectsResponse response;
    try {
      response = s3.deleteObjects(b -> b.bucket(options.bucket()).delete(d -> d.objects(ids).quiet(true)));
    } catch (SdkException e) {
      throw new StorageException("Deleting " + batch.size() + " objects below " + root + " (first "
          + uriOf(batch.get(0)) + ") failed: " + describe(e), e);
    }
    List<S3Error> errors = response.errors().stream()
        .filter(err -> !"NoSuchKey".equals(err.code()))
        .collect(Collectors.toList());
    if (!errors.isEmpty()) {
      String sample = errors.stream().limit(5)
          .map(err -> err.key() + " (" + err.code() + ": " + err.message() + ")")
          .collect(Collectors.joining(", "));
      throw new StorageException("Deleting objects in bucket " + options.bucket() + " failed for " + errors.size()
          + " of " + batch.size() + " keys, e.g. " + sample + "; check the permissions and retry");
    }
  }

  private StorageException failure(String operation, String key, SdkException e) {
    if (e instanceof S3Exception && ((S3Exception) e).statusCode() == 404 && !isNoSuchBucket((S3Exception) e)) {
      return new ObjectNotFoundException("Cannot read " + uriOf(key) + ": it does not exist", e);
    }
    return new StorageException(operation + " " + uriOf(key) + " failed: " + describe(e), e);
  }

  private static boolean isNoSuchBucket(S3Exception e) {
    return e.awsErrorDetails() != null && "NoSuchBucket".equals(e.awsErrorDetails().errorCode());
  }

  private ObjectNotFoundException notFound(String key) {
    return new ObjectNotFoundException("Cannot read " + uriOf(key) + ": it does not exist");
  }

  /** The SDK's message plus a hint for the failures that have a usual cause. */
  String describe(SdkException e) {
    if (e == null) {
      return "no attempt was made";
    }
    if (!(e instanceof S3Exception)) {
      return timedOut(e) ? e.getMessage() + timeoutHint(e) : e.getMessage();
    }
    S3Exception s3e = (S3Exception) e;
    String code = s3e.awsErrorDetails() == null ? null : s3e.awsErrorDetails().errorCode();
    String base = "HTTP " + s3e.statusCode() + (code == null ? "" : " " + code) + ": " + e.getMessage();
    if (s3e.statusCode() == 403) {
      return base + " (check the credentials and that they may access bucket " + options.bucket() + ")";
    }
    if ("NoSuchBucket".equals(code)) {
      return base + " (bucket " + options.bucket() + " does not exist: create it or fix the bucket name)";
    }
    return base;
  }

  private String endpoint() {
    return options.endpoint() == null ? "AWS S3" : options.endpoint().toString();
  }

  private static boolean timedOut(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SocketTimeoutException || t instanceof ApiCallAttemptTimeoutException
          || t.getClass().getSimpleName().equals("ConnectTimeoutException")) {
        return true;
      }
    }
    return false;
  }

  /** Which wait ran out, at which endpoint, and the option that lengthens it. */
  private String timeoutHint(Throwable e) {
    S3Timeouts t = options.timeouts();
    String option;
    String what;
    java.time.Duration limit;
    if (hasCause(e, "ConnectTimeoutException")) {
      option = ObjectStores.CONNECTION_TIMEOUT;
      what = "no connection";
      limit = t.connection();
    } else if (hasCause(e, ApiCallAttemptTimeoutException.class.getSimpleName())) {
      option = ObjectStores.ATTEMPT_TIMEOUT;
      what = "no complete answer";
      limit = t.attempt();
    } else {
      option = ObjectStores.SOCKET_TIMEOUT;
      what = "no answer";
      limit = t.socket();
    }
    return " (endpoint " + endpoint() + ": " + what + " within " + option + " " + S3Timeouts.text(limit)
        + "; check that the endpoint is right and reachable, or raise the storage option " + option
        + " (" + option.replace('-', '_') + " under storage: in a Sluice config))";
  }

  private static boolean hasCause(Throwable e, String simpleName) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getClass().getSimpleName().equals(simpleName)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {
    s3.close();
    s3Once.close();
    http.close();
    if (credentials instanceof AutoCloseable) {
      try {
        ((AutoCloseable) credentials).close();
      } catch (Exception ignored) {
        // nothing to release that matters after the clients are closed
      }
    }
  }

  @Override
  public String toString() {
    return "S3ObjectStore(" + options + ")";
  }
}
