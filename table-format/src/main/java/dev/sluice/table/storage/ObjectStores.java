package dev.sluice.table.storage;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Opens the object store for a root URI: {@code file:///data/warehouse} (a {@link LocalObjectStore})
 * or {@code s3://bucket/prefix} (an {@link S3ObjectStore}). The caller closes the store.
 */
public final class ObjectStores {
  /** Option keys for {@code s3:} roots. */
  public static final String ENDPOINT = "endpoint";
  public static final String REGION = "region";
  public static final String PATH_STYLE = "path-style";
  public static final String ACCESS_KEY_ID = "access-key-id";
  public static final String SECRET_ACCESS_KEY = "secret-access-key";
  public static final String MAX_ATTEMPTS = "max-attempts";
  public static final String PART_SIZE = "part-size";
  public static final String LIST_PAGE_SIZE = "list-page-size";
  /** Durations such as {@code 5s}, {@code 500ms}, {@code 2 minutes}; see {@link S3Timeouts}. */
  public static final String CONNECTION_TIMEOUT = "connection-timeout";
  public static final String SOCKET_TIMEOUT = "socket-timeout";
  public static final String ATTEMPT_TIMEOUT = "attempt-timeout";

  private static final Set<String> S3_OPTIONS = new TreeSet<>(Set.of(ENDPOINT, REGION, PATH_STYLE, ACCESS_KEY_ID,
      SECRET_ACCESS_KEY, MAX_ATTEMPTS, PART_SIZE, LIST_PAGE_SIZE, CONNECTION_TIMEOUT, SOCKET_TIMEOUT, ATTEMPT_TIMEOUT));
  private static final Pattern DURATION = Pattern.compile(
      "(\\d+)\\s*(ms|millis|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)", Pattern.CASE_INSENSITIVE);

  private ObjectStores() {}

  /** The store for {@code root} with default options. */
  public static ObjectStore open(URI root) {
    return open(root, Map.of());
  }

  /**
   * The store for {@code root}.
   *
   * @param options for {@code s3:} roots: {@value #ENDPOINT}, {@value #REGION}, {@value #PATH_STYLE},
   *     {@value #ACCESS_KEY_ID}, {@value #SECRET_ACCESS_KEY}, {@value #MAX_ATTEMPTS}, {@value #PART_SIZE}
   *     (bytes), {@value #LIST_PAGE_SIZE}, and the durations {@value #CONNECTION_TIMEOUT},
   *     {@value #SOCKET_TIMEOUT} and {@value #ATTEMPT_TIMEOUT} ({@code 5s}, {@code 500ms}, {@code 2 minutes};
   *     defaults in {@link S3Timeouts#DEFAULT}); {@code file:} roots take none. An endpoint implies
   *     path-style addressing (what S3-compatible servers expect) unless path-style is false.
   * @throws IllegalArgumentException for an unsupported scheme, an unknown option key or a bad value
   */
  public static ObjectStore open(URI root, Map<String, String> options) {
    String scheme = root.getScheme();
    if (scheme == null) {
      throw new IllegalArgumentException("Cannot open an object store for '" + root + "': the URI has no scheme;"
          + " use file:///absolute/path or s3://bucket/prefix");
    }
    switch (scheme.toLowerCase(java.util.Locale.ROOT)) {
      case "file":
        checkKeys(root, options, Set.of());
        return new LocalObjectStore(Path.of(root));
      case "s3":
        return new S3ObjectStore(s3Options(root, options));
      default:
        throw new IllegalArgumentException("Cannot open an object store for '" + root + "': scheme '" + scheme
            + "' is not supported; the supported schemes are file and s3");
    }
  }

  /** The S3 options that {@link #open(URI, Map)} uses for an {@code s3://bucket/prefix} root. */
  public static S3Options s3Options(URI root, Map<String, String> options) {
    checkKeys(root, options, S3_OPTIONS);
    String bucket = root.getAuthority();
    if (bucket == null || bucket.isEmpty()) {
      throw new IllegalArgumentException("Cannot open an object store for '" + root + "': the URI names no bucket;"
          + " use s3://bucket/prefix");
    }
    S3Options s3 = S3Options.of(bucket, root.getPath() == null ? "" : root.getPath());
    if (options.containsKey(ENDPOINT)) {
      s3 = s3.withEndpoint(parse(root, ENDPOINT, options.get(ENDPOINT), URI::create)).withPathStyle(true);
    }
    if (options.containsKey(REGION)) {
      s3 = s3.withRegion(options.get(REGION));
    }
    if (options.containsKey(PATH_STYLE)) {
      s3 = s3.withPathStyle(parse(root, PATH_STYLE, options.get(PATH_STYLE), ObjectStores::parseBoolean));
    }
    if (options.containsKey(ACCESS_KEY_ID) || options.containsKey(SECRET_ACCESS_KEY)) {
      s3 = s3.withCredentials(options.get(ACCESS_KEY_ID), options.get(SECRET_ACCESS_KEY));
    }
    if (options.containsKey(MAX_ATTEMPTS)) {
      s3 = s3.withMaxAttempts(parse(root, MAX_ATTEMPTS, options.get(MAX_ATTEMPTS), Integer::parseInt));
    }
    if (options.containsKey(PART_SIZE)) {
      s3 = s3.withPartSize(parse(root, PART_SIZE, options.get(PART_SIZE), Long::parseLong));
    }
    if (options.containsKey(LIST_PAGE_SIZE)) {
      s3 = s3.withListPageSize(parse(root, LIST_PAGE_SIZE, options.get(LIST_PAGE_SIZE), Integer::parseInt));
    }
    S3Timeouts timeouts = s3.timeouts();
    if (options.containsKey(CONNECTION_TIMEOUT)) {
      timeouts = timeouts.withConnection(parse(root, CONNECTION_TIMEOUT, options.get(CONNECTION_TIMEOUT),
          ObjectStores::parseDuration));
    }
    if (options.containsKey(SOCKET_TIMEOUT)) {
      timeouts = timeouts.withSocket(parse(root, SOCKET_TIMEOUT, options.get(SOCKET_TIMEOUT), ObjectStores::parseDuration));
    }
    if (options.containsKey(ATTEMPT_TIMEOUT)) {
      timeouts = timeouts.withAttempt(parse(root, ATTEMPT_TIMEOUT, options.get(ATTEMPT_TIMEOUT),
          ObjectStores::parseDuration));
    }
    return s3.withTimeouts(timeouts);
  }

  private static Duration parseDuration(String s) {
    Matcher m = DURATION.matcher(s);
    if (!m.matches()) {
      throw new IllegalArgumentException("expected a duration such as 5s, 500ms or 2 minutes");
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2).toLowerCase(java.util.Locale.ROOT);
    if (unit.startsWith("ms") || unit.startsWith("milli")) {
      return Duration.ofMillis(n);
    }
    return unit.startsWith("s") ? Duration.ofSeconds(n) : Duration.ofMinutes(n);
  }

  private static void checkKeys(URI root, Map<String, String> options, Set<String> valid) {
    for (String key : options.keySet()) {
      if (!valid.contains(key)) {
        throw new IllegalArgumentException("Unknown object store option '" + key + "' for " + root + "; "
            + (valid.isEmpty() ? "this scheme takes no options" : "valid options are " + String.join(", ", valid)));
      }
    }
  }

  private static <T> T parse(URI root, String key, String value, Function<String, T> parser) {
    try {
      return parser.apply(value.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("Object store option '" + key + "' for " + root + " has an invalid value '"
          + value + "': " + e.getMessage(), e);
    }
  }

  private static boolean parseBoolean(String s) {
    if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(s);
    }
    throw new IllegalArgumentException("expected true or false");
  }
}
