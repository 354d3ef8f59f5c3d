package dev.sluice.table.internal.parquet;

/**
 * How {@link ParquetDataWriter} writes a data file.
 *
 * @param codec page compression
 * @param numIndexedCols how many leaf columns (depth-first, as {@code delta.dataSkippingNumIndexedCols})
 *     get statistics; -1 means all
 * @param rowGroupSize target row group size in bytes (Spark's default is 128 MiB)
 * @param pageSize target page size in bytes
 * @param dictionaryHints which columns to write without trying a dictionary, learnt from the table's earlier files
 */
public record ParquetWriteOptions(Codec codec, int numIndexedCols, long rowGroupSize, int pageSize,
    DictionaryHints dictionaryHints) {
  /** Delta's default for {@code delta.dataSkippingNumIndexedCols}. */
  public static final int DEFAULT_NUM_INDEXED_COLS = 32;

  /** The page compressions Sluice writes. */
  public enum Codec {
    SNAPPY,
    ZSTD
  }

  public ParquetWriteOptions {
    if (codec == null) {
      throw new IllegalArgumentException("A Parquet codec is required: pass SNAPPY or ZSTD");
    }
    if (numIndexedCols < -1) {
      throw new IllegalArgumentException(
          "numIndexedCols is " + numIndexedCols + ", but must be -1 (all columns) or >= 0");
    }
    if (dictionaryHints == null) {
      throw new IllegalArgumentException("dictionaryHints is required: pass DictionaryHints.none() to remember nothing");
    }
    if (rowGroupSize <= 0 || pageSize <= 0) {
      throw new IllegalArgumentException(
          "rowGroupSize (" + rowGroupSize + ") and pageSize (" + pageSize + ") must be positive");
    }
  }

  /** Snappy, 32 indexed columns, 128 MiB row groups, 1 MiB pages, no dictionary hints. */
  public static ParquetWriteOptions defaults() {
    return new ParquetWriteOptions(Codec.SNAPPY, DEFAULT_NUM_INDEXED_COLS, 128L << 20, 1 << 20, DictionaryHints.none());
  }

  public ParquetWriteOptions withCodec(Codec value) {
    return new ParquetWriteOptions(value, numIndexedCols, rowGroupSize, pageSize, dictionaryHints);
  }

  public ParquetWriteOptions withNumIndexedCols(int value) {
    return new ParquetWriteOptions(codec, value, rowGroupSize, pageSize, dictionaryHints);
  }

  public ParquetWriteOptions withRowGroupSize(long value) {
    return new ParquetWriteOptions(codec, numIndexedCols, value, pageSize, dictionaryHints);
  }

  public ParquetWriteOptions withDictionaryHints(DictionaryHints value) {
    return new ParquetWriteOptions(codec, numIndexedCols, rowGroupSize, pageSize, value);
  }
}
