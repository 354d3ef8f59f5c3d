package dev.sluice.config.internal;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Checks of single values: names, table paths, column types, measures, cron expressions; null means valid. */
final class Checks {
  static final Pattern PIPELINE_NAME = Pattern.compile("[a-z][a-z0-9_]*");
  static final Set<String> PRIMITIVE_TYPES = Set.of("string", "long", "integer", "short", "byte", "double",
      "float", "boolean", "binary", "date", "timestamp", "timestamp_ntz");
  private static final Pattern DECIMAL = Pattern.compile("decimal\\s*\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");
  /**
   * {@code scheme://user@…} or {@code scheme://user:password@…}; the password may hold a {@code /} (AWS secret
   * keys do), so after a {@code :} anything up to the {@code @} counts.
   */
  private static final Pattern USER_INFO = Pattern.compile(
      "^[A-Za-z][A-Za-z0-9+.-]*://([^/?#@]*@|[^/?#@:]*:[^@]*@).*", Pattern.DOTALL);
  static final String CREDENTIALS_HINT = "write the URI without them (s3://bucket/prefix) and give the keys as"
      + " storage: {access_key_id: ${env:AWS_ACCESS_KEY_ID}, secret_access_key: ${env:AWS_SECRET_ACCESS_KEY}},"
      + " or leave them out to use the AWS default credential chain";
  private static final Pattern MEASURE = Pattern.compile(
      "\\s*(count|sum|avg|min|max)\\s*\\((.*)\\)\\s+as\\s+([A-Za-z_][A-Za-z0-9_]*)\\s*", Pattern.CASE_INSENSITIVE);

  private Checks() {}

  static String pipelineName(String name) {
    return PIPELINE_NAME.matcher(name).matches() ? null
        : "`" + name + "` is not a valid pipeline name: use lower-case letters, digits and _, starting with a letter";
  }

  /** A sink table: a relative path inside the warehouse. */
  static String relativeTable(String table) {
    if (table.contains("://") || table.startsWith("file:")) {
      return "`" + table + "` must be a path relative to the warehouse (e.g. silver/orders), not a URI";
    }
    if (table.startsWith("/") || table.endsWith("/")) {
      return "`" + table + "` must be a relative path without a leading or trailing / (e.g. silver/orders)";
    }
    for (String segment : table.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..") || segment.isBlank()) {
        return "`" + table + "` has an empty, `.` or `..` segment; write a plain path such as silver/orders";
      }
    }
    return null;
  }

  /** A table to read: relative to the warehouse, or an absolute file:/// or s3:// URI. */
  static String tableReference(String table) {
    if (table.contains("://") || table.startsWith("file:")) {
      return storageUri(table, "table");
    }
    return relativeTable(table);
  }

  /**
   * Refuses a URI with credentials ({@code s3://KEY:SECRET@bucket/…}) without echoing it: URIs are printed in
   * logs, progress and {@code sluice tables}, so a key written there leaks.
   */
  static String credentialsInUri(String text, String what) {
    return USER_INFO.matcher(text.strip()).matches()
        ? "the " + what + " URI holds credentials (user information before `@`); they are refused and not shown"
            + " here, because URIs are printed in logs, progress and listings"
        : null;
  }

  /**
   * The warehouse as a URI: a {@code file:///…} or {@code s3://bucket/prefix} URI, or an absolute local path
   * ({@code /data/wh}, read as {@code file:///data/wh}, as Spark does).
   */
  static URI warehouseUri(String text) {
    String t = text.strip();
    if (!t.startsWith("/")) {
      return URI.create(t);
    }
    // Path.toUri gives file:///…, with a trailing / when the folder exists: drop it, so the URI doesn't vary.
    String uri = Path.of(t).normalize().toUri().toString();
    return URI.create(uri.length() > "file:///".length() && uri.endsWith("/") ? uri.substring(0, uri.length() - 1)
        : uri);
  }

  /** What is wrong with a warehouse; null when {@link #warehouseUri} can read it. */
  static String warehouse(String text) {
    String t = text.strip();
    if (t.startsWith("/")) {
      return null;
    }
    if (!t.contains(":")) {
      return "`" + text + "` is a relative path; the warehouse must be absolute (file:///absolute/path, /absolute/path"
          + " or s3://bucket/prefix), so that every run, whatever its working directory, finds the same tables";
    }
    return storageUri(t, "warehouse");
  }

  /** A {@code file:///…} or {@code s3://bucket/prefix} URI. */
  static String storageUri(String text, String what) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      return "`" + text + "` is not a valid URI (" + e.getReason() + "); the " + what
          + " must be file:///absolute/path or s3://bucket/prefix";
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme();
    if (scheme.equals("file")) {
      boolean local = uri.getAuthority() == null || uri.getAuthority().isEmpty();
      return local && uri.getPath() != null && uri.getPath().startsWith("/") ? null
          : "`" + text + "` is not a local file URI; the " + what + " must be file:///absolute/path";
    }
    if (scheme.equals("s3")) {
      return uri.getHost() != null && !uri.getHost().isEmpty() ? null
          : "`" + text + "` names no bucket; the " + what + " must be s3://bucket or s3://bucket/prefix";
    }
    String hint = scheme.equals("s3a") || scheme.equals("s3n") ? " (write s3:// instead of " + scheme + "://)" : "";
    return "`" + text + "` must be a file:/// or s3:// URI" + hint;
  }

  /** A Delta type name, lower-case; null when not one. */
  static String deltaType(String type) {
    String t = type.strip().toLowerCase(java.util.Locale.ROOT);
    if (PRIMITIVE_TYPES.contains(t)) {
      return t;
    }
    Matcher m = DECIMAL.matcher(t);
    if (m.matches()) {
      int precision = Integer.parseInt(m.group(1));
      int scale = Integer.parseInt(m.group(2));
      if (precision >= 1 && precision <= 38 && scale <= precision) {
        return "decimal(" + precision + "," + scale + ")";
      }
    }
    return null;
  }

  static String measure(String measure) {
    return MEASURE.matcher(measure).matches() ? null
        : "`" + measure + "` is not a measure: write <function>(<expression>) AS <name>, with count, sum, avg,"
            + " min or max";
  }

  static String cron(String cron) {
    int fields = cron.strip().split("\\s+").length;
    return fields == 6 || fields == 7 ? null
        : "`" + cron + "` has " + fields + " fields; a Quartz cron expression has 6 or 7 (seconds minutes hours"
            + " day-of-month month day-of-week [year])";
  }
}
