package dev.sluice.table.internal.parquet;

/**
 * How {@link ParquetDataWriter} writes a data file.
 *
 * @param codec page compression
 * @param numIndexedCols how many leaf columns (depth-first, as {@code delta.dataSkippingNumIndexedCols})
 *     get statistics; -1 means all
 * @param rowGroupSize target row group size in bytes (Spark's default is 128 MiB)
 * @param pageSize target page size in bytes
 */
public record ParquetWriteOptions(Codec codec, int numIndexedCols, long rowGroupSize, int pageSize) {
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
    if (rowGroupSize <= 0 || pageSize <= 0) {
      throw new IllegalArgumentException(
          "rowGroupSize (" + rowGroupSize + ") and pageSize (" + pageSize + ") must be positive");
    }
  }

  /** Snappy, 32 indexed columns, 128 MiB row groups, 1 MiB pages. */
  public static ParquetWriteOptions defaults() {
    return new ParquetWriteOptions(Codec.SNAPPY, DEFAULT_NUM_INDEXED_COLS, 128L << 20, 1 << 20);
  }

  public ParquetWriteOptions withCodec(Codec value) {
    return new ParquetWriteOptions(value, numIndexedCols, rowGroupSize, pageSize);
  }

  public ParquetWriteOptions withNumIndexedCols(int value) {
    return new ParquetWriteOptions(codec, value, rowGroupSize, pageSize);
  }

  public ParquetWriteOptions withRowGroupSize(long value) {
    return new ParquetWriteOptions(codec, numIndexedCols, value, pageSize);
  }
}
