package dev.sluice.table.internal.maintenance;

import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.replay.Intervals;
import java.time.Duration;

/** The retention table properties that VACUUM and log cleanup apply, with Delta's defaults. */
public final class Retention {
  public static final String DELETED_FILE_RETENTION = "delta.deletedFileRetentionDuration";
  public static final String LOG_RETENTION = "delta.logRetentionDuration";
  public static final String EXPIRED_LOG_CLEANUP = "delta.enableExpiredLogCleanup";
  static final Duration DEFAULT_DELETED_FILE_RETENTION = Duration.ofDays(7);
  static final Duration DEFAULT_LOG_RETENTION = Duration.ofDays(30);

  private Retention() {}

  /** {@code delta.deletedFileRetentionDuration}, default 1 week. */
  public static Duration deletedFileRetention(Metadata metadata) {
    return property(metadata, DELETED_FILE_RETENTION, DEFAULT_DELETED_FILE_RETENTION);
  }

  /** {@code delta.logRetentionDuration}, default 30 days. */
  public static Duration logRetention(Metadata metadata) {
    return property(metadata, LOG_RETENTION, DEFAULT_LOG_RETENTION);
  }

  /** {@code delta.enableExpiredLogCleanup}, default true. */
  public static boolean expiredLogCleanupEnabled(Metadata metadata) {
    return !"false".equalsIgnoreCase(metadata.configuration().getOrDefault(EXPIRED_LOG_CLEANUP, "true").trim());
  }

  private static Duration property(Metadata metadata, String name, Duration fallback) {
    String raw = metadata.configuration().get(name);
    return raw == null ? fallback : Duration.ofMillis(Intervals.parseMillis(raw, name));
  }

  /** {@code 168h}, {@code 30m}, {@code 0s}: the form the CLI's --retain takes. */
  public static String format(Duration d) {
    if (d.toMillis() % 3_600_000 == 0) {
      return d.toHours() + "h";
    }
    if (d.toMillis() % 60_000 == 0) {
      return d.toMinutes() + "m";
    }
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }
}
