package dev.sluice.table.storage;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.exceptions.StorageException;
import java.net.URI;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Function;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A ListObjectsV2 listing fetched one page at a time as the caller iterates. S3 returns keys in
 * UTF-8 byte order, which {@link StoragePaths#compareKeys} matches.
 */
final class S3Listing implements CloseableIterator<ObjectStatus> {
  private final S3Client s3;
  private final String bucket;
  private final String keyPrefix;
  private final String prefix;
  private final String startFrom;
  private final int pageSize;
  private final Function<String, URI> uriOf;
  private Iterator<S3Object> page = Collections.emptyIterator();
  private String continuationToken;
  private boolean lastPage;
  private boolean firstPage = true;
  private ObjectStatus next;

  S3Listing(S3Client s3, String bucket, String keyPrefix, String prefix, String startFrom, int pageSize,
      Function<String, URI> uriOf) {
    this.s3 = s3;
    this.bucket = bucket;
    this.keyPrefix = keyPrefix;
    this.prefix = prefix;
    this.startFrom = startFrom;
    this.pageSize = pageSize;
    this.uriOf = uriOf;
  }

  @Override
  public boolean hasNext() {
    while (next == null) {
      if (!page.hasNext()) {
        if (lastPage) {
          return false;
        }
        fetchPage();
        continue;
      }
      S3Object o = page.next();
      String key = o.key().substring(keyPrefix.length());
      // folder markers ("dir/") made by consoles are not objects; startAfter may let a few early keys through
      if (!key.isEmpty() && !key.endsWith("/") && StoragePaths.compareKeys(key, startFrom) >= 0) {
        next = new ObjectStatus(key, o.size(), o.lastModified().toEpochMilli());
      }
    }
    return true;
  }

  @Override
  public ObjectStatus next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    ObjectStatus out = next;
    next = null;
    return out;
  }

  private void fetchPage() {
    ListObjectsV2Request.Builder b = ListObjectsV2Request.builder()
        .bucket(bucket)
        .prefix(keyPrefix + prefix)
        .maxKeys(pageSize);
    if (firstPage && StoragePaths.compareKeys(startFrom, prefix) > 0) {
      b.startAfter(keyPrefix + justBelow(startFrom));
    }
    if (continuationToken != null) {
      b.continuationToken(continuationToken);
    }
    try {
      ListObjectsV2Response response = s3.listObjectsV2(b.build());
      page = response.contents().iterator();
      continuationToken = response.nextContinuationToken();
      lastPage = !Boolean.TRUE.equals(response.isTruncated()) || continuationToken == null;
      firstPage = false;
    } catch (SdkException e) {
      throw new StorageException("Listing " + uriOf.apply(prefix) + " from '" + startFrom + "' failed: "
          + e.getMessage(), e);
    }
  }

  /**
   * A key that sorts before {@code s} with no key in between except ones that start with it:
   * startAfter is exclusive, and the few keys it lets through are filtered out.
   */
  static String justBelow(String s) {
    int n = s.length();
    char last = s.charAt(n - 1);
    if (Character.isLowSurrogate(last) && n >= 2) {
      return s.substring(0, n - 2);
    }
    if (last > 0 && !Character.isSurrogate(last) && !Character.isSurrogate((char) (last - 1))) {
      return s.substring(0, n - 1) + (char) (last - 1);
    }
    return s.substring(0, n - 1);
  }

  @Override
  public void close() {
    lastPage = true;
    page = Collections.emptyIterator();
    next = null;
  }
}
