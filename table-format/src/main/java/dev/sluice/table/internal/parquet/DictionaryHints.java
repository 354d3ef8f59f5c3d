package dev.sluice.table.internal.parquet;

import java.util.HashMap;
import java.util.Map;

/**
 * Remembers, for the data files of one table, which columns Parquet wrote without a dictionary because the first
 * page showed it would not pay (unique ids, millisecond timestamps), so that the table's next files write those
 * columns plain from the start: the same encoding Parquet falls back to, without first filling a dictionary of
 * the first page's values (for such columns the costliest step of encoding a file) only to throw it away.
 *
 * <p>Only files whose column held at least {@link #MIN_VALUES} values teach anything: a small file's first page
 * says little about cardinality. A column written plain is tried with a dictionary again every
 * {@link #RETRY_AFTER}-th file, so a column whose values start to repeat gets its dictionary back. Either way the
 * file holds the same values and statistics; only the page encoding differs, and every Parquet reader reads both.
 *
 * <p>Thread-safe: the writers of one append that run in parallel share it.
 */
public final class DictionaryHints {
  /** Non-null values a column chunk needs for its dictionary decision to be remembered. */
  static final long MIN_VALUES = 10_000;
  /** A column that fell back is written plain in this many files, then tried with a dictionary again. */
  static final int RETRY_AFTER = 16;

  private static final DictionaryHints NONE = new DictionaryHints(false);

  private final boolean enabled;
  /** Column path (dot-joined) -> files still to write plain before the next try. */
  private final Map<String, Integer> plainFiles = new HashMap<>();

  private DictionaryHints(boolean enabled) {
    this.enabled = enabled;
  }

  /** A fresh memory, for the files of one table. */
  public static DictionaryHints create() {
    return new DictionaryHints(true);
  }

  /** Remembers nothing: every file tries a dictionary for every column, as Parquet does by default. */
  public static DictionaryHints none() {
    return NONE;
  }

  /** Whether a new file should write {@code column} plain; asked once per file and column. */
  synchronized boolean plain(String column) {
    if (!enabled) {
      return false;
    }
    Integer left = plainFiles.get(column);
    if (left == null || left == 0) {
      return false; // a try: the file's outcome is recorded
    }
    plainFiles.put(column, left - 1);
    return true;
  }

  /** What a file that tried a dictionary for {@code column} ended with, over {@code values} non-null values. */
  synchronized void record(String column, long values, boolean fellBack) {
    if (!enabled || values < MIN_VALUES) {
      return;
    }
    if (fellBack) {
      plainFiles.put(column, RETRY_AFTER - 1);
    } else {
      plainFiles.remove(column);
    }
  }
}
