package dev.sluice.table.internal.log;

import dev.sluice.table.storage.StoragePaths;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names of the files in {@code _delta_log}, in one place. Paths are object store keys; names are the
 * part after the last '/'. Files Sluice does not use ({@code .crc}, {@code .compacted.json}, V2 UUID
 * checkpoints, {@code _staged_commits/}, temporary files) are neither commits nor checkpoints here.
 */
public final class FileNames {
  private static final Pattern COMMIT = Pattern.compile("(\\d{20})\\.json");
  private static final Pattern SINGLE_CHECKPOINT = Pattern.compile("(\\d{20})\\.checkpoint\\.parquet");
  private static final Pattern MULTI_CHECKPOINT = Pattern.compile("(\\d{20})\\.checkpoint\\.(\\d{10})\\.(\\d{10})\\.parquet");
  private static final Pattern VERSIONED = Pattern.compile("(\\d{20})\\..*");

  /** The log folder name under the table root. */
  public static final String LOG_DIR = "_delta_log";

  private FileNames() {}

  /**
   * The log folder of a table.
   *
   * <p>Example: {@code logPath("bronze/orders")} = {@code bronze/orders/_delta_log}.
   */
  public static String logPath(String tablePath) {
    return StoragePaths.join(tablePath, LOG_DIR);
  }

  /**
   * The commit file of a version.
   *
   * <p>Example: {@code deltaFile("t/_delta_log", 7)} = {@code t/_delta_log/00000000000000000007.json}.
   */
  public static String deltaFile(String logPath, long version) {
    return StoragePaths.join(logPath, String.format("%020d.json", version));
  }

  /**
   * The single-file (classic V1) checkpoint of a version.
   *
   * <p>Example: {@code checkpointFile("t/_delta_log", 10)} = {@code t/_delta_log/00000000000000000010.checkpoint.parquet}.
   */
  public static String checkpointFile(String logPath, long version) {
    return StoragePaths.join(logPath, String.format("%020d.checkpoint.parquet", version));
  }

  /**
   * One part of a multi-part checkpoint; parts are numbered from 1.
   *
   * <p>Example: {@code checkpointPartFile("t/_delta_log", 1, 2, 2)} =
   * {@code t/_delta_log/00000000000000000001.checkpoint.0000000002.0000000002.parquet}.
   */
  public static String checkpointPartFile(String logPath, long version, int part, int parts) {
    return StoragePaths.join(logPath, String.format("%020d.checkpoint.%010d.%010d.parquet", version, part, parts));
  }

  /**
   * The checkpoint hint.
   *
   * <p>Example: {@code lastCheckpointFile("t/_delta_log")} = {@code t/_delta_log/_last_checkpoint}.
   */
  public static String lastCheckpointFile(String logPath) {
    return StoragePaths.join(logPath, "_last_checkpoint");
  }

  /**
   * The listing start key that finds every log file of {@code version} and later.
   *
   * <p>Example: {@code listingPrefix("t/_delta_log", 3)} = {@code t/_delta_log/00000000000000000003}.
   */
  public static String listingPrefix(String logPath, long version) {
    return StoragePaths.join(logPath, String.format("%020d", version));
  }

  /**
   * Whether a name is a commit file.
   *
   * <p>Example: {@code 00000000000000000007.json} is; {@code 00000000000000000007.crc} is not.
   */
  public static boolean isCommitFile(String name) {
    return COMMIT.matcher(baseName(name)).matches();
  }

  /**
   * Whether a name is a classic checkpoint, single-file or a part of a multi-part one.
   *
   * <p>Example: {@code 00000000000000000010.checkpoint.parquet} and
   * {@code 00000000000000000001.checkpoint.0000000001.0000000002.parquet} are; the V2
   * {@code 00000000000000000002.checkpoint.80a0...json} is not.
   */
  public static boolean isCheckpointFile(String name) {
    String base = baseName(name);
    return SINGLE_CHECKPOINT.matcher(base).matches() || MULTI_CHECKPOINT.matcher(base).matches();
  }

  /**
   * The number of parts of the checkpoint set a file belongs to (1 for a single file).
   *
   * <p>Example: {@code 00000000000000000001.checkpoint.0000000001.0000000002.parquet} gives 2.
   *
   * @throws IllegalArgumentException if the name is not a checkpoint
   */
  public static int checkpointParts(String name) {
    String base = baseName(name);
    if (SINGLE_CHECKPOINT.matcher(base).matches()) {
      return 1;
    }
    Matcher m = MULTI_CHECKPOINT.matcher(base);
    if (m.matches()) {
      return Integer.parseInt(m.group(3));
    }
    throw new IllegalArgumentException("Not a checkpoint file name: " + name);
  }

  /**
   * The part number of a multi-part checkpoint file, empty for a single-file checkpoint.
   *
   * <p>Example: {@code 00000000000000000001.checkpoint.0000000001.0000000002.parquet} gives 1.
   */
  public static OptionalInt checkpointPart(String name) {
    Matcher m = MULTI_CHECKPOINT.matcher(baseName(name));
    return m.matches() ? OptionalInt.of(Integer.parseInt(m.group(2))) : OptionalInt.empty();
  }

  /**
   * The version a log file belongs to.
   *
   * <p>Example: {@code versionOf("t/_delta_log/00000000000000000010.checkpoint.parquet")} = 10.
   *
   * @throws IllegalArgumentException if the name does not start with a 20-digit version
   */
  public static long versionOf(String name) {
    Matcher m = VERSIONED.matcher(baseName(name));
    if (!m.matches()) {
      throw new IllegalArgumentException("Not a versioned Delta log file name: " + name);
    }
    return Long.parseLong(m.group(1));
  }

  /**
   * The part of a key after the last '/'.
   *
   * <p>Example: {@code baseName("t/_delta_log/00000000000000000000.json")} = {@code 00000000000000000000.json}.
   */
  public static String baseName(String key) {
    int slash = key.lastIndexOf('/');
    return slash < 0 ? key : key.substring(slash + 1);
  }
}
