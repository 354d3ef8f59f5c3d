package dev.sluice.ingestion.internal.sink.files;

import dev.sluice.table.data.Row;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.StructType;

/** How a file sink writes one data file of a format (json lines, csv, parquet). */
interface OutputFormat {
  /** The file name's ending, e.g. {@code .json}, {@code .csv.gz}, {@code .snappy.parquet}. */
  String extension();

  /**
   * Checks that the format can write {@code schema} (the data columns, without partition columns).
   *
   * @throws IllegalArgumentException naming a column whose type the format can't hold, and the fix
   */
  void check(StructType schema);

  /** Starts the file {@code key}; nothing is visible there until {@link DataFile#close()} succeeds. */
  DataFile open(ObjectStore store, String key, StructType schema);

  /** One data file being written; the caller calls exactly one of {@link #close()} or {@link #abort()}. */
  interface DataFile {
    void write(Row row);

    long numRecords();

    /** Finishes the file and makes it visible. */
    void close();

    /** Gives the file up: nothing stays at its key. Safe after a failure. */
    void abort();
  }
}
