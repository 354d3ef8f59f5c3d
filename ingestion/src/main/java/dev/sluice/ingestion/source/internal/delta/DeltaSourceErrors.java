package dev.sluice.ingestion.source.internal.delta;

import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/** Every message of the {@code delta} source: the problem, its cause and the fix. */
final class DeltaSourceErrors {
  private DeltaSourceErrors() {}

  static IllegalArgumentException unknownOption(String key, Collection<String> accepted) {
    return new IllegalArgumentException("Unknown option '" + key + "' for the delta source. Accepted options: "
        + new TreeSet<>(accepted) + " (case-insensitive).");
  }

  static IllegalArgumentException unsupportedSparkOption(String key) {
    return new IllegalArgumentException("Option '" + key + "' is not supported by the delta source. Use "
        + DeltaSourceOptions.SKIP_CHANGE_COMMITS + "=true to skip whole commits that delete or update rows, or "
        + DeltaSourceOptions.READ_CHANGE_FEED + "=true to read their changes as rows.");
  }

  static IllegalArgumentException badValue(String option, String value, String expected) {
    return new IllegalArgumentException("Option " + option + " of the delta source is '" + value + "'; it must be "
        + expected + ".");
  }

  static IllegalArgumentException unknownColumn(String description, String column, List<String> columns) {
    return new IllegalArgumentException("Option " + DeltaSourceOptions.COLUMNS + " of " + description + " names '"
        + column + "', which is not a column of the table; its columns are " + columns + ".");
  }

  static IllegalArgumentException twoStartingPoints() {
    return new IllegalArgumentException("Options " + DeltaSourceOptions.STARTING_VERSION + " and "
        + DeltaSourceOptions.STARTING_TIMESTAMP + " of the delta source contradict each other: give at most one.");
  }

  static IllegalArgumentException skipWithChangeFeed() {
    return new IllegalArgumentException("Options " + DeltaSourceOptions.SKIP_CHANGE_COMMITS + " and "
        + DeltaSourceOptions.READ_CHANGE_FEED + " of the delta source cannot be combined: the change feed reads updates"
        + " and deletes as rows, so there is nothing to skip. Remove " + DeltaSourceOptions.SKIP_CHANGE_COMMITS + ".");
  }

  static IllegalArgumentException missingPath() {
    return new IllegalArgumentException("The delta source needs a path: the location of the table to read"
        + " (e.g. s3://bucket/warehouse/bronze/orders).");
  }

  static IllegalArgumentException userSchema(String description) {
    return new IllegalArgumentException(description + ": a delta source reads the table's own schema; remove the"
        + " declared schema.");
  }

  static IllegalArgumentException changeFeedDisabled(String description) {
    return new IllegalArgumentException(description + ": " + DeltaSourceOptions.READ_CHANGE_FEED + "=true needs the"
        + " change data feed, which the table does not enable. Set the table property"
        + " delta.enableChangeDataFeed=true (changes are recorded from then on), or read without "
        + DeltaSourceOptions.READ_CHANGE_FEED + ".");
  }

  static IllegalArgumentException startAfterLatest(String description, long version, long latest) {
    return new IllegalArgumentException(description + ": " + DeltaSourceOptions.STARTING_VERSION + " " + version
        + " is after the table's latest version " + latest + ". Use a version up to " + latest
        + ", or 'latest' to read only new commits.");
  }

  static IllegalArgumentException badOffset(String description, String json, String why) {
    return new IllegalArgumentException(description + ": the checkpointed offset " + json + " cannot be used: "
        + why + ". The checkpoint does not belong to this source; start the query with a new checkpoint.");
  }

  static IllegalStateException otherTable(String description, String offsetTableId, String tableId) {
    return new IllegalStateException(description + ": the checkpoint's offsets are for table id " + offsetTableId
        + " but the table now has id " + tableId + " (it was deleted and re-created, or the path points elsewhere)."
        + " Its offsets mean nothing for this table; start the query with a new checkpoint.");
  }

  static IllegalStateException changeCommit(String description, long version, String operation) {
    return new IllegalStateException(description + ": version " + version + " (" + (operation == null
        ? "unknown operation" : operation) + ") deletes or updates existing rows, which a stream of appended rows"
        + " cannot express. Restart the query with " + DeltaSourceOptions.SKIP_CHANGE_COMMITS + "=true to skip such"
        + " commits entirely (rows they insert too), or with " + DeltaSourceOptions.READ_CHANGE_FEED
        + "=true to read inserts, updates and deletes as change rows (needs delta.enableChangeDataFeed).");
  }

  static IllegalStateException versionGone(String description, long version, long earliest, RuntimeException cause) {
    IllegalStateException e = new IllegalStateException(description + ": version " + version + " is needed but is no"
        + " longer in the table's log (earliest available: " + (earliest < 0 ? "none" : earliest) + "); log cleanup"
        + " removed it (see delta.logRetentionDuration) before the query read it. Reading on would skip its rows"
        + " silently, so the query stops. Start it with a new checkpoint (from the snapshot, or a startingVersion of at"
        + " least " + Math.max(earliest, 0) + "), and keep delta.logRetentionDuration above the longest time the query"
        + " may be stopped.");
    if (cause != null) {
      e.initCause(cause);
    }
    return e;
  }

  static IllegalStateException schemaChanged(String description, long version, List<String> problems) {
    return new IllegalStateException(description + ": the table's schema changed at version " + version + " in a way"
        + " the running query cannot read: " + String.join("; ", problems) + ". The query keeps the schema it started"
        + " with; restart the query to pick up the new schema, or start it with a new checkpoint if downstream state"
        + " depends on the old one.");
  }
}
