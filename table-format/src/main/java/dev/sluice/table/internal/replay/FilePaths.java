package dev.sluice.table.internal.replay;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Canonical file paths for matching {@code add} and {@code remove} actions. The log may name one file as
 * a relative, URI-encoded path ({@code part-0.parquet}), an unqualified absolute path
 * ({@code /t/part-0.parquet}) or a URI ({@code file:/t/part-0.parquet}, {@code file:///t/part-0.parquet});
 * all of them resolve, against the table root, to the same canonical URI string.
 */
public final class FilePaths {
  private FilePaths() {}

  /**
   * The canonical URI string of a log path: resolved against {@code tableRoot} (which must end with '/'),
   * its path decoded and re-encoded one way, and an empty authority dropped ({@code file:/t/a%20b}).
   *
   * @throws IllegalArgumentException if the path is not a valid URI even after encoding
   */
  public static String canonicalize(URI tableRoot, String logPath) {
    URI resolved = tableRoot.resolve(parse(logPath));
    try {
      String authority = resolved.getRawAuthority() == null || resolved.getRawAuthority().isEmpty()
          ? null : resolved.getAuthority();
      return new URI(resolved.getScheme(), authority, resolved.getPath(), null, null).normalize().toString();
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("The file path '" + logPath + "' in the Delta log is not a valid URI", e);
    }
  }

  /** The URI of a table root key, ending with '/', as {@link #canonicalize} expects. */
  public static URI rootOf(URI tableUri) {
    String s = tableUri.toString();
    return s.endsWith("/") ? tableUri : URI.create(s + "/");
  }

  private static URI parse(String logPath) {
    try {
      return new URI(logPath);
    } catch (URISyntaxException e) {
      // Some writers leave characters such as spaces unencoded: treat the whole string as a plain path.
      try {
        return new URI(null, null, logPath, null);
      } catch (URISyntaxException again) {
        throw new IllegalArgumentException("The file path '" + logPath + "' in the Delta log is not a valid URI", again);
      }
    }
  }
}
