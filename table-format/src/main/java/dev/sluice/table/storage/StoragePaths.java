package dev.sluice.table.storage;

import java.net.URI;
import java.util.Optional;

/** Key and URI helpers shared by the object store implementations. */
public final class StoragePaths {
  private StoragePaths() {}

  /** Encodes a key for {@link URI#resolve(String)}: each segment percent-encoded as a URI path. */
  public static String encodeKeyForUri(String key) {
    try {
      return new URI(null, null, key, null).getRawPath();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalArgumentException("Not a valid object key: " + key, e);
    }
  }

  /** The key of {@code uri} below {@code root}, compared on decoded paths; empty if outside. */
  public static Optional<String> relativize(URI root, URI uri) {
    String rootScheme = root.getScheme() == null ? "file" : root.getScheme();
    String scheme = uri.getScheme() == null ? "file" : uri.getScheme();
    if (!rootScheme.equalsIgnoreCase(scheme)) {
      return Optional.empty();
    }
    String rootAuthority = root.getAuthority() == null ? "" : root.getAuthority();
    String authority = uri.getAuthority() == null ? "" : uri.getAuthority();
    if (!rootAuthority.equals(authority)) {
      return Optional.empty();
    }
    String rootPath = root.getPath() == null ? "/" : root.getPath();
    if (!rootPath.endsWith("/")) {
      rootPath = rootPath + "/";
    }
    String path = uri.getPath() == null ? "" : uri.getPath();
    if (!path.startsWith(rootPath)) {
      return Optional.empty();
    }
    return Optional.of(path.substring(rootPath.length()));
  }

  /** Joins key parts with '/', ignoring empty parts and duplicate slashes. */
  public static String join(String... parts) {
    StringBuilder sb = new StringBuilder();
    for (String p : parts) {
      if (p == null || p.isEmpty()) {
        continue;
      }
      String trimmed = p;
      while (trimmed.startsWith("/")) {
        trimmed = trimmed.substring(1);
      }
      while (trimmed.endsWith("/")) {
        trimmed = trimmed.substring(0, trimmed.length() - 1);
      }
      if (trimmed.isEmpty()) {
        continue;
      }
      if (sb.length() > 0) {
        sb.append('/');
      }
      sb.append(trimmed);
    }
    return sb.toString();
  }

  /**
   * Orders keys by Unicode code point, which is the UTF-8 byte order S3 lists in (String.compareTo
   * differs for characters outside the Basic Multilingual Plane); every store lists in this order.
   */
  static int compareKeys(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }

  /**
   * Rejects keys that would escape the root or name the same object two ways: empty, leading or
   * trailing '/', empty, "." or ".." segments, or NUL characters.
   *
   * @throws IllegalArgumentException naming the key and the rule it breaks
   */
  static String checkKey(String key) {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("Object key must not be empty: name an object below the store root");
    }
    if (key.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("Object key '" + key.replace('\0', '?') + "' contains a NUL character");
    }
    for (String segment : key.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException("Object key '" + key + "' is invalid: keys are relative '/'-separated paths"
            + " without leading, trailing or doubled '/' and without '.' or '..' segments");
      }
    }
    return key;
  }
}
