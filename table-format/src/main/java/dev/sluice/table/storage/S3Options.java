package dev.sluice.table.storage;

import java.net.URI;
import java.util.Objects;

/**
 * Where and how an {@link S3ObjectStore} reaches its bucket. Start from {@link #of(String, String)}
 * and adjust with the {@code with*} methods; {@link #toString()} never prints the secret key.
 *
 * @param bucket the bucket name
 * @param keyPrefix folder inside the bucket that is the store's root, without leading or trailing '/'
 *     ("" for the bucket root)
 * @param endpoint an S3-compatible endpoint such as {@code http://127.0.0.1:9000}, or null for AWS
 * @param region the signing region, or null for the SDK's region chain (us-east-1 with an endpoint)
 * @param pathStyle address the bucket as {@code endpoint/bucket} instead of {@code bucket.endpoint}
 * @param accessKeyId static credentials, or null for the SDK's default credentials provider chain
 * @param secretAccessKey given together with {@code accessKeyId}
 * @param maxAttempts attempts per request (first try included) for throttling, 5xx and I/O errors
 * @param partSize multipart part size in bytes for {@link ObjectStore#newOutputStream}; at least 5 MiB
 * @param listPageSize keys per ListObjectsV2 page, 1 to 1000 (smaller only to test paging)
 * @param timeouts how long to wait for the endpoint ({@link S3Timeouts#DEFAULT} unless set)
 */
public record S3Options(
    String bucket,
    String keyPrefix,
    URI endpoint,
    String region,
    boolean pathStyle,
    String accessKeyId,
    String secretAccessKey,
    int maxAttempts,
    long partSize,
    int listPageSize,
    S3Timeouts timeouts) {

  public static final int DEFAULT_MAX_ATTEMPTS = 5;
  public static final long DEFAULT_PART_SIZE = 8L << 20;
  /** S3 rejects smaller parts (except the last) when the upload completes. */
  public static final long MIN_PART_SIZE = 5L << 20;
  public static final int MAX_LIST_PAGE_SIZE = 1000;

  public S3Options {
    Objects.requireNonNull(bucket, "bucket");
    if (bucket.isEmpty() || bucket.contains("/")) {
      throw new IllegalArgumentException("S3 bucket name '" + bucket + "' is invalid: give just the bucket name, without '/'");
    }
    keyPrefix = trimSlashes(keyPrefix == null ? "" : keyPrefix);
    if (!keyPrefix.isEmpty()) {
      StoragePaths.checkKey(keyPrefix);
    }
    if ((accessKeyId == null) != (secretAccessKey == null)) {
      throw new IllegalArgumentException("S3 credentials for bucket " + bucket + " are incomplete: give both the access"
          + " key id and the secret access key, or neither to use the default credentials provider chain");
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("S3 max attempts must be at least 1, got " + maxAttempts);
    }
    if (partSize < MIN_PART_SIZE) {
      throw new IllegalArgumentException("S3 multipart part size must be at least " + MIN_PART_SIZE
          + " bytes (5 MiB, the S3 minimum), got " + partSize);
    }
    Objects.requireNonNull(timeouts, "timeouts");
    if (listPageSize < 1 || listPageSize > MAX_LIST_PAGE_SIZE) {
      throw new IllegalArgumentException("S3 list page size must be between 1 and " + MAX_LIST_PAGE_SIZE
          + ", got " + listPageSize);
    }
  }

  /** AWS defaults: no endpoint override, virtual-host addressing, default credentials and region chains. */
  public static S3Options of(String bucket, String keyPrefix) {
    return new S3Options(bucket, keyPrefix, null, null, false, null, null, DEFAULT_MAX_ATTEMPTS, DEFAULT_PART_SIZE,
        MAX_LIST_PAGE_SIZE, S3Timeouts.DEFAULT);
  }

  public S3Options withEndpoint(URI newEndpoint) {
    return new S3Options(bucket, keyPrefix, newEndpoint, region, pathStyle, accessKeyId, secretAccessKey, maxAttempts,
        partSize, listPageSize, timeouts);
  }

  public S3Options withRegion(String newRegion) {
    return new S3Options(bucket, keyPrefix, endpoint, newRegion, pathStyle, accessKeyId, secretAccessKey, maxAttempts,
        partSize, listPageSize, timeouts);
  }

  public S3Options withPathStyle(boolean newPathStyle) {
    return new S3Options(bucket, keyPrefix, endpoint, region, newPathStyle, accessKeyId, secretAccessKey, maxAttempts,
        partSize, listPageSize, timeouts);
  }

  public S3Options withCredentials(String newAccessKeyId, String newSecretAccessKey) {
    return new S3Options(bucket, keyPrefix, endpoint, region, pathStyle, newAccessKeyId, newSecretAccessKey,
        maxAttempts, partSize, listPageSize, timeouts);
  }

  public S3Options withMaxAttempts(int newMaxAttempts) {
    return new S3Options(bucket, keyPrefix, endpoint, region, pathStyle, accessKeyId, secretAccessKey, newMaxAttempts,
        partSize, listPageSize, timeouts);
  }

  public S3Options withPartSize(long newPartSize) {
    return new S3Options(bucket, keyPrefix, endpoint, region, pathStyle, accessKeyId, secretAccessKey, maxAttempts,
        newPartSize, listPageSize, timeouts);
  }

  public S3Options withListPageSize(int newListPageSize) {
    return new S3Options(bucket, keyPrefix, endpoint, region, pathStyle, accessKeyId, secretAccessKey, maxAttempts,
        partSize, newListPageSize, timeouts);
  }

  public S3Options withTimeouts(S3Timeouts newTimeouts) {
    return new S3Options(bucket, keyPrefix, endpoint, region, pathStyle, accessKeyId, secretAccessKey, maxAttempts,
        partSize, listPageSize, newTimeouts);
  }

  /** Same options under another folder of the bucket. */
  public S3Options withKeyPrefix(String newKeyPrefix) {
    return new S3Options(bucket, newKeyPrefix, endpoint, region, pathStyle, accessKeyId, secretAccessKey, maxAttempts,
        partSize, listPageSize, timeouts);
  }

  /** {@code s3://bucket/prefix/}. */
  public URI rootUri() {
    return URI.create("s3://" + bucket + "/" + (keyPrefix.isEmpty() ? "" : StoragePaths.encodeKeyForUri(keyPrefix) + "/"));
  }

  @Override
  public String toString() {
    return "S3Options[root=" + rootUri()
        + ", endpoint=" + (endpoint == null ? "AWS" : endpoint)
        + ", region=" + (region == null ? "default chain" : region)
        + ", pathStyle=" + pathStyle
        + ", credentials=" + (accessKeyId == null ? "default chain" : "accessKeyId " + accessKeyId + ", secret ****")
        + ", maxAttempts=" + maxAttempts
        + ", partSize=" + partSize
        + ", listPageSize=" + listPageSize
        + ", timeouts=" + timeouts + "]";
  }

  private static String trimSlashes(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && s.charAt(start) == '/') {
      start++;
    }
    while (end > start && s.charAt(end - 1) == '/') {
      end--;
    }
    return s.substring(start, end);
  }
}
