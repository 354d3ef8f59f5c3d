package dev.sluice.ingestion.source.internal.files;

import dev.sluice.ingestion.source.internal.SourceOptions;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * The options of a {@code files} source, parsed and checked once.
 *
 * @param maxFiles {@code maxFilesPerTrigger} (combined with the runner's read limit: the smaller wins)
 * @param maxBytes {@code maxBytesPerTrigger}; a single larger file is still taken
 * @param maxFileAgeMs files older than the newest seen file minus this are ignored (default 7 days, as Spark)
 * @param cleanSource what {@code commit} does with the files of committed batches
 * @param failFast {@code mode=FAILFAST}: a malformed record fails the batch instead of becoming a corrupt row
 * @param rescue {@code rescuedDataColumn} and {@code rescueTypeMismatches}: where text records put what doesn't fit
 * @param settleTimeMs {@code fileSettleTime}: a file is taken once its modification time is at least this old;
 *     empty: the store's default ({@link #DEFAULT_SETTLE_LOCAL} on local disk, 0 on object stores, which list an
 *     object only once its upload is complete)
 * @param ignoreMissingFiles {@code ignoreMissingFiles}: a taken file deleted before it was read is skipped (logged,
 *     counted) instead of failing the batch
 * @param corruptColumn {@code columnNameOfCorruptRecord} (default {@code _corrupt_record})
 */
record FileSourceOptions(
    String format,
    long maxFiles,
    long maxBytes,
    long maxFileAgeMs,
    boolean latestFirst,
    CleanSource cleanSource,
    Optional<String> archiveDir,
    boolean failFast,
    boolean includeSourceColumn,
    boolean inferSchema,
    CsvOptions csv,
    Rescue rescue,
    Optional<Long> settleTimeMs,
    boolean ignoreMissingFiles,
    String corruptColumn) {

  /** Long enough for a writer's pauses between writes, short enough not to delay a run right after landing. */
  static final Duration DEFAULT_SETTLE_LOCAL = Duration.ofSeconds(1);

  static final Set<String> FORMATS = Set.of("json", "csv", "parquet");
  static final Set<String> KEYS = Set.of("format", "maxfilespertrigger", "maxbytespertrigger", "maxfileage",
      "latestfirst", "cleansource", "sourcearchivedir", "mode", "includesourcecolumn", "inferschema",
      "header", "delimiter", "sep", "quote", "escape", "nullvalue", "rescueddatacolumn", "rescuetypemismatches",
      "filesettletime", "ignoremissingfiles", "columnnameofcorruptrecord");

  /** What happens to input files once their batch is committed. */
  enum CleanSource { OFF, ARCHIVE, DELETE }

  /** CSV dialect: {@code header}, {@code delimiter}/{@code sep}, {@code quote}, {@code escape}, {@code nullValue}. */
  record CsvOptions(boolean header, char delimiter, char quote, char escape, String nullValue) {}

  /**
   * Whether JSON and CSV records keep what doesn't fit the schema in a column instead of being marked corrupt.
   *
   * @param column the column name ({@code rescuedDataColumn}); empty: off, the default
   * @param typeMismatches {@code rescueTypeMismatches} (default true): a value of the wrong type is rescued too;
   *     false keeps such a record corrupt and rescues only unknown fields
   */
  record Rescue(Optional<String> column, boolean typeMismatches) {
    static final Rescue OFF = new Rescue(Optional.empty(), false);

    boolean enabled() {
      return column.isPresent();
    }
  }

  static FileSourceOptions parse(String format, SourceOptions o) {
    CleanSource clean = CleanSource.valueOf(
        o.choice("cleanSource", "off", Set.of("off", "archive", "delete")).toUpperCase(java.util.Locale.ROOT));
    Optional<String> archiveDir = o.string("sourceArchiveDir");
    if (clean == CleanSource.ARCHIVE && archiveDir.isEmpty()) {
      throw new IllegalArgumentException("Option cleanSource=archive of the files source needs option"
          + " 'sourceArchiveDir': set it to the folder that committed input files are moved to");
    }
    char delimiter = o.character("delimiter").or(() -> o.character("sep")).orElse(',');
    CsvOptions csv = new CsvOptions(o.bool("header", false), delimiter, o.character("quote").orElse('"'),
        o.character("escape").orElse('\\'), o.string("nullValue", ""));
    return new FileSourceOptions(
        format,
        o.longValue("maxFilesPerTrigger", 1).orElse(Long.MAX_VALUE),
        o.longValue("maxBytesPerTrigger", 1).orElse(Long.MAX_VALUE),
        o.duration("maxFileAge", Duration.ofDays(7)).toMillis(),
        o.bool("latestFirst", false),
        clean,
        archiveDir,
        o.choice("mode", "permissive", Set.of("permissive", "failfast")).equals("failfast"),
        o.bool("includeSourceColumn", false),
        o.bool("inferSchema", false),
        csv,
        rescue(o),
        o.string("fileSettleTime").map(v -> o.duration("fileSettleTime", Duration.ZERO).toMillis()),
        o.bool("ignoreMissingFiles", false),
        corruptColumn(o));
  }

  private static String corruptColumn(SourceOptions o) {
    String name = o.string("columnNameOfCorruptRecord", RowLayout.CORRUPT_RECORD).trim();
    if (name.isEmpty()) {
      throw new IllegalArgumentException("Option columnNameOfCorruptRecord of the files source is empty: set it to a"
          + " column name such as _corrupt_record, or leave it out");
    }
    return name;
  }

  private static Rescue rescue(SourceOptions o) {
    Optional<String> column = o.string("rescuedDataColumn").map(String::trim);
    if (column.isPresent() && column.get().isEmpty()) {
      throw new IllegalArgumentException("Option rescuedDataColumn of the files source is empty: set it to a column"
          + " name such as _rescued_data, or leave it out");
    }
    boolean typeMismatches = o.bool("rescueTypeMismatches", true);
    if (column.isEmpty() && o.string("rescueTypeMismatches").isPresent()) {
      throw new IllegalArgumentException("Option rescueTypeMismatches of the files source needs option"
          + " rescuedDataColumn: set it (e.g. to _rescued_data), or remove rescueTypeMismatches");
    }
    return new Rescue(column, typeMismatches);
  }
}
