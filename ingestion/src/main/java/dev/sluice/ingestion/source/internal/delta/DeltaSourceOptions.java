package dev.sluice.ingestion.source.internal.delta;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The options of the {@code delta} source, validated.
 *
 * <ul>
 *   <li>{@code startingVersion}: a version number or {@code latest} (only commits after the current
 *       latest); reads changes from there on, with no initial snapshot.
 *   <li>{@code startingTimestamp}: ISO instant ({@code 2026-11-30T10:00:00Z}), local date-time (UTC)
 *       or date; starts at the first commit at or after it (after the latest commit: only new ones).
 *   <li>{@code maxFilesPerTrigger} (default 1000) and {@code maxBytesPerTrigger} (e.g. {@code 512m}):
 *       soft limits per batch as in Spark: files are taken while both budgets are positive, so a
 *       batch may pass the byte limit by its last file.
 *   <li>{@code skipChangeCommits}: skip whole commits that delete or update rows.
 *   <li>{@code readChangeFeed}: read the change data feed instead of added files.
 *   <li>{@code rereadFiles} (default false): a batch of the initial snapshot is not copied; every pass over it reads
 *       its rows from the table's files again (for a plan that reads its batch once, as gold's update mode does:
 *       one decode instead of a copy written and read back). Needs record counts in the files' stats, else the
 *       rows are copied as usual.
 *   <li>{@code columns} (default: all): the table columns to read, comma-separated; the stream's rows hold only
 *       these, in table order (then the change feed's columns). The other columns' pages are never decoded, and a
 *       step that names one fails when the query starts, as with any unknown column.
 * </ul>
 * Without a starting option the query first reads the table's snapshot, then the commits after it.
 */
record DeltaSourceOptions(Start start, long maxFilesPerTrigger, long maxBytesPerTrigger, boolean skipChangeCommits,
    boolean readChangeFeed, boolean rereadFiles, Optional<List<String>> columns) {
  static final String STARTING_VERSION = "startingVersion";
  static final String STARTING_TIMESTAMP = "startingTimestamp";
  static final String MAX_FILES = "maxFilesPerTrigger";
  static final String MAX_BYTES = "maxBytesPerTrigger";
  static final String SKIP_CHANGE_COMMITS = "skipChangeCommits";
  static final String READ_CHANGE_FEED = "readChangeFeed";
  static final String REREAD_FILES = "rereadFiles";
  static final String COLUMNS = "columns";
  static final long DEFAULT_MAX_FILES = 1000;

  /** Accepted keys, lower case (the provider's contract). */
  static final Set<String> KEYS = Set.of(STARTING_VERSION.toLowerCase(Locale.ROOT),
      STARTING_TIMESTAMP.toLowerCase(Locale.ROOT), MAX_FILES.toLowerCase(Locale.ROOT),
      MAX_BYTES.toLowerCase(Locale.ROOT), SKIP_CHANGE_COMMITS.toLowerCase(Locale.ROOT),
      READ_CHANGE_FEED.toLowerCase(Locale.ROOT), REREAD_FILES.toLowerCase(Locale.ROOT), COLUMNS);

  /** Spark options that this source deliberately does not offer. */
  private static final Set<String> SPARK_ONLY = Set.of("ignoredeletes", "ignorechanges");

  /** Where a query without checkpointed offsets starts. */
  sealed interface Start {
    /** The table's snapshot at the first batch, then every later commit. */
    record InitialSnapshot() implements Start {}

    /** The changes of this version and later ones. */
    record AtVersion(long version) implements Start {}

    /** Only commits after the latest version seen by the first batch. */
    record Latest() implements Start {}

    /** The changes of the first commit at or after this time, and later ones. */
    record AtTimestamp(Instant timestamp) implements Start {}
  }

  /**
   * @throws IllegalArgumentException naming an unknown or malformed option and its fix
   */
  static DeltaSourceOptions parse(Map<String, String> raw) {
    String start = null;
    String timestamp = null;
    long maxFiles = DEFAULT_MAX_FILES;
    long maxBytes = Long.MAX_VALUE;
    boolean skip = false;
    boolean cdf = false;
    boolean reread = false;
    Optional<List<String>> columns = Optional.empty();
    for (Map.Entry<String, String> e : raw.entrySet()) {
      String key = e.getKey().toLowerCase(Locale.ROOT);
      String value = e.getValue() == null ? "" : e.getValue().trim();
      if (SPARK_ONLY.contains(key)) {
        throw DeltaSourceErrors.unsupportedSparkOption(e.getKey());
      } else if (key.equals(STARTING_VERSION.toLowerCase(Locale.ROOT))) {
        start = value;
      } else if (key.equals(STARTING_TIMESTAMP.toLowerCase(Locale.ROOT))) {
        timestamp = value;
      } else if (key.equals(MAX_FILES.toLowerCase(Locale.ROOT))) {
        maxFiles = positive(MAX_FILES, value, parseLong(MAX_FILES, value, "a whole number of files, e.g. 100"));
      } else if (key.equals(MAX_BYTES.toLowerCase(Locale.ROOT))) {
        maxBytes = positive(MAX_BYTES, value, ByteSizes.parse(MAX_BYTES, value));
      } else if (key.equals(SKIP_CHANGE_COMMITS.toLowerCase(Locale.ROOT))) {
        skip = parseBoolean(SKIP_CHANGE_COMMITS, value);
      } else if (key.equals(READ_CHANGE_FEED.toLowerCase(Locale.ROOT))) {
        cdf = parseBoolean(READ_CHANGE_FEED, value);
      } else if (key.equals(REREAD_FILES.toLowerCase(Locale.ROOT))) {
        reread = parseBoolean(REREAD_FILES, value);
      } else if (key.equals(COLUMNS)) {
        columns = Optional.of(parseColumns(value));
      } else {
        throw DeltaSourceErrors.unknownOption(e.getKey(), KEYS);
      }
    }
    if (start != null && timestamp != null) {
      throw DeltaSourceErrors.twoStartingPoints();
    }
    if (skip && cdf) {
      throw DeltaSourceErrors.skipWithChangeFeed();
    }
    return new DeltaSourceOptions(startOf(start, timestamp), maxFiles, maxBytes, skip, cdf, reread, columns);
  }

  private static List<String> parseColumns(String value) {
    List<String> names = new ArrayList<>();
    for (String name : value.split(",")) {
      if (name.isBlank()) {
        throw DeltaSourceErrors.badValue(COLUMNS, value,
            "the table columns to read, comma-separated (customer_id,amount)");
      }
      names.add(name.trim());
    }
    return List.copyOf(names);
  }

  private static Start startOf(String version, String timestamp) {
    if (version != null) {
      if (version.equalsIgnoreCase("latest")) {
        return new Start.Latest();
      }
      long v = parseLong(STARTING_VERSION, version, "a version number (0 or more) or 'latest'");
      if (v < 0) {
        throw DeltaSourceErrors.badValue(STARTING_VERSION, version, "a version number (0 or more) or 'latest'");
      }
      return new Start.AtVersion(v);
    }
    if (timestamp != null) {
      return new Start.AtTimestamp(parseTimestamp(timestamp));
    }
    return new Start.InitialSnapshot();
  }

  private static Instant parseTimestamp(String value) {
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException notInstant) {
      try {
        return LocalDateTime.parse(value.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
      } catch (DateTimeParseException notDateTime) {
        try {
          return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException notDate) {
          throw DeltaSourceErrors.badValue(STARTING_TIMESTAMP, value,
              "an ISO timestamp such as 2026-11-30T10:00:00Z, a UTC date-time 2026-11-30 10:00:00 or a date 2026-11-30");
        }
      }
    }
  }

  private static long parseLong(String option, String value, String expected) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw DeltaSourceErrors.badValue(option, value, expected);
    }
  }

  private static long positive(String option, String value, long parsed) {
    if (parsed <= 0) {
      throw DeltaSourceErrors.badValue(option, value, "a number greater than 0");
    }
    return parsed;
  }

  private static boolean parseBoolean(String option, String value) {
    if (value.equalsIgnoreCase("true")) {
      return true;
    }
    if (value.equalsIgnoreCase("false")) {
      return false;
    }
    throw DeltaSourceErrors.badValue(option, value, "true or false");
  }
}
