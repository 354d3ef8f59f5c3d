package dev.sluice.ingestion.source.internal.files;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the files source met besides good rows, counted between two {@link #drain} calls (files are read in
 * parallel, so the counters are thread-safe). Reported in the batch's progress: nothing is skipped uncounted.
 */
final class FileSourceMetrics {
  /** Taken files deleted before they were read, skipped under {@code ignoreMissingFiles}. */
  static final String MISSING_FILES_SKIPPED = "numMissingFilesSkipped";
  /** Taken files whose size or modification time changed later: the change was not ingested. */
  static final String FILES_CHANGED_AFTER_READ = "numFilesChangedAfterRead";
  /** Records that could not be parsed (including invalid UTF-8 lines and unreadable Parquet files). */
  static final String MALFORMED_RECORDS = "numMalformedRecords";
  /** Lines that are not valid UTF-8. */
  static final String INVALID_UTF8_LINES = "numInvalidUtf8Lines";
  /** Malformed records whose raw text was not kept because the schema declares no corrupt-record column. */
  static final String MALFORMED_NOT_KEPT = "numMalformedRecordsNotKept";

  private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();

  void add(String name, long n) {
    counters.computeIfAbsent(name, k -> new LongAdder()).add(n);
  }

  void increment(String name) {
    add(name, 1);
  }

  /** The non-zero counters since the previous call, which are reset. */
  Map<String, Long> drain() {
    Map<String, Long> out = new TreeMap<>();
    counters.forEach((k, v) -> {
      long n = v.sumThenReset();
      if (n != 0) {
        out.put(k, n);
      }
    });
    return out;
  }
}
