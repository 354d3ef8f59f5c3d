package dev.sluice.ingestion.internal;

import dev.sluice.ingestion.Location;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.storage.ObjectStores;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * Turns the paths users write ({@code /data/landing}, {@code file:///data/landing},
 * {@code s3://bucket/prefix}) into {@link Location}s, sharing one store per bucket (an S3 client is
 * costly) and one for the local file system (rooted at "/").
 */
public final class Locations {
  private final Map<String, String> storageOptions;
  private final Map<String, ObjectStore> stores = new ConcurrentHashMap<>();

  private final UnaryOperator<ObjectStore> wrapper;

  public Locations(Map<String, String> storageOptions, UnaryOperator<ObjectStore> wrapper) {
    this.storageOptions = Map.copyOf(storageOptions);
    this.wrapper = wrapper;
  }

  /**
   * @throws IllegalArgumentException for an unknown scheme or storage option (naming it)
   */
  public Location resolve(String pathOrUri) {
    if (pathOrUri == null || pathOrUri.isBlank()) {
      throw new IllegalArgumentException("A path is required (a local path, file:///… or s3://bucket/prefix)");
    }
    String text = pathOrUri.trim();
    if (text.startsWith("s3://") || text.startsWith("s3a://")) {
      URI uri = URI.create(text.replaceFirst("^s3a://", "s3://"));
      String bucket = uri.getHost();
      if (bucket == null || bucket.isEmpty()) {
        throw new IllegalArgumentException("The S3 path '" + pathOrUri + "' has no bucket; write s3://bucket/prefix");
      }
      ObjectStore store = stores.computeIfAbsent("s3://" + bucket,
          b -> wrapper.apply(ObjectStores.open(URI.create("s3://" + bucket + "/"), storageOptions)));
      return new Location(store, trimSlashes(uri.getPath()));
    }
    Path path = text.startsWith("file:") ? Path.of(URI.create(text)) : Path.of(text);
    Path absolute = path.toAbsolutePath().normalize();
    ObjectStore local = stores.computeIfAbsent("file:/", k -> wrapper.apply(new LocalObjectStore(absolute.getRoot())));
    return new Location(local, trimSlashes(absolute.toString().replace('\\', '/')));
  }

  private static String trimSlashes(String s) {
    String out = s == null ? "" : s;
    while (out.startsWith("/")) {
      out = out.substring(1);
    }
    while (out.endsWith("/")) {
      out = out.substring(0, out.length() - 1);
    }
    return out;
  }
}
