package dev.sluice.table.internal.write;

import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How data files are written: compression codec, target file size, and how many leaf columns get stats.
 *
 * @param targetFileSizeSet whether the write chose the size; if not, the table's {@code delta.targetFileSize} applies
 */
public record WriteOptions(String codec, long targetFileSizeBytes, int statsColumns, boolean targetFileSizeSet) {
  /** 128 MiB, the size Delta's auto-compaction and optimized writes aim at. */
  public static final long DEFAULT_TARGET_FILE_SIZE = 128L << 20;
  public static final String TARGET_FILE_SIZE_PROPERTY = "delta.targetFileSize";
  public static final WriteOptions DEFAULT = new WriteOptions("snappy", DEFAULT_TARGET_FILE_SIZE, 32, false);
  private static final Logger LOG = LoggerFactory.getLogger(WriteOptions.class);

  public WriteOptions {
    if (!codec.equals("snappy") && !codec.equals("zstd")) {
      throw new IllegalArgumentException("Unknown Parquet codec '" + codec + "'; use snappy or zstd");
    }
    if (targetFileSizeBytes <= 0) {
      throw new IllegalArgumentException("The target file size is " + targetFileSizeBytes
          + " bytes, but must be positive; 1 gives one row per file, Long.MAX_VALUE one file per partition");
    }
  }

  public WriteOptions withCodec(String value) {
    return new WriteOptions(value, targetFileSizeBytes, statsColumns, targetFileSizeSet);
  }

  public WriteOptions withTargetFileSize(long bytes) {
    return new WriteOptions(codec, bytes, statsColumns, true);
  }

  /**
   * These options for a table with this {@code configuration}: its {@code delta.targetFileSize} applies
   * unless the write set a size. A value that is not a size keeps the default and is logged (as other
   * table properties that Sluice reads are), so a property another engine wrote never blocks a write.
   */
  public WriteOptions forTable(Map<String, String> configuration) {
    String raw = configuration.get(TARGET_FILE_SIZE_PROPERTY);
    if (targetFileSizeSet || raw == null) {
      return this;
    }
    long bytes = parseSize(raw);
    if (bytes <= 0) {
      LOG.warn("Table property {}='{}' is not a positive size, so data files roll at the default {} bytes. "
          + "Set it to bytes (134217728) or with a unit (128mb, 1gb).", TARGET_FILE_SIZE_PROPERTY, raw,
          DEFAULT_TARGET_FILE_SIZE);
      return this;
    }
    return new WriteOptions(codec, bytes, statsColumns, false);
  }

  /** Bytes of {@code 104857600}, {@code 100mb}, {@code 512k}, {@code 1gb} (binary units, as Spark's); -1 if not a size. */
  static long parseSize(String raw) {
    String s = raw.trim().toLowerCase(Locale.ROOT);
    int end = 0;
    while (end < s.length() && Character.isDigit(s.charAt(end))) {
      end++;
    }
    if (end == 0) {
      return -1;
    }
    int shift = switch (s.substring(end).trim()) {
      case "", "b" -> 0;
      case "k", "kb", "kib" -> 10;
      case "m", "mb", "mib" -> 20;
      case "g", "gb", "gib" -> 30;
      default -> -1;
    };
    try {
      long value = Long.parseLong(s.substring(0, end));
      return shift < 0 || value > (Long.MAX_VALUE >> shift) ? -1 : value << shift;
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
