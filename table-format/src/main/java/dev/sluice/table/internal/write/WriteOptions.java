package dev.sluice.table.internal.write;

/** How data files are written: compression codec, target file size, and how many leaf columns get stats. */
public record WriteOptions(String codec, long targetFileSizeBytes, int statsColumns) {
  public static final WriteOptions DEFAULT = new WriteOptions("snappy", 128L << 20, 32);

  public WriteOptions {
    if (!codec.equals("snappy") && !codec.equals("zstd")) {
      throw new IllegalArgumentException("Unknown Parquet codec '" + codec + "'; use snappy or zstd");
    }
  }

  public WriteOptions withCodec(String value) {
    return new WriteOptions(value, targetFileSizeBytes, statsColumns);
  }

  public WriteOptions withTargetFileSize(long bytes) {
    return new WriteOptions(codec, bytes, statsColumns);
  }
}
