package dev.sluice.table;

import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.write.WriteOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/** Settings every write shares: idempotency ({@code txn}), file options, extra commit metrics, retries. */
abstract class WriteOperation<T extends WriteOperation<T>> {
  final TableContext context;
  String appId;
  long appVersion = -1;
  WriteOptions options = WriteOptions.DEFAULT;
  final Map<String, String> extraMetrics = new LinkedHashMap<>();
  String operationName;
  int retries;

  WriteOperation(TableContext context, int defaultRetries) {
    this.context = context;
    this.retries = defaultRetries;
  }

  @SuppressWarnings("unchecked")
  private T self() {
    return (T) this;
  }

  /**
   * Commits with {@code txn(appId, version)} in the same atomic commit as the data; when the table
   * already holds that version (or a later one) for {@code appId}, the write is skipped.
   */
  public T txn(String appId, long version) {
    if (appId == null || appId.isBlank() || version < 0) {
      throw new IllegalArgumentException("txn needs a non-empty appId and a version >= 0, got (" + appId + ", " + version + ")");
    }
    this.appId = appId;
    this.appVersion = version;
    return self();
  }

  /** Parquet codec of new files: snappy (default) or zstd. */
  public T codec(String codec) {
    options = options.withCodec(codec);
    return self();
  }

  /**
   * Roll data files at about this many bytes (default: the table property {@code delta.targetFileSize},
   * else 128 MiB). The size is measured as the file is written, with the page being filled (up to 1 MiB per
   * column) counted before compression, so files far smaller than a page come out smaller than asked.
   *
   * @throws IllegalArgumentException if {@code bytes} is not positive
   */
  public T targetFileSize(long bytes) {
    options = options.withTargetFileSize(bytes);
    return self();
  }

  /** Extra entries for {@code commitInfo.operationMetrics} (e.g. a pipeline's row ledger). */
  public T metric(String name, long value) {
    extraMetrics.put(name, Long.toString(value));
    return self();
  }

  /** Several extra {@code operationMetrics} entries. */
  public T metrics(Map<String, Long> values) {
    values.forEach(this::metric);
    return self();
  }

  /** The operation name in {@code commitInfo} (e.g. {@code STREAMING UPDATE}); each operation has a default. */
  public T operation(String name) {
    this.operationName = name;
    return self();
  }

  /** How often to re-run the whole operation on a fresh snapshot after a conflict (default depends on the operation). */
  public T retries(int count) {
    this.retries = count;
    return self();
  }

  boolean hasTxn() {
    return appId != null;
  }

  Map<String, String> withExtra(Map<String, String> metrics) {
    Map<String, String> out = new LinkedHashMap<>(metrics);
    out.putAll(extraMetrics);
    return out;
  }

  CommitResult withRetries(Supplier<CommitResult> attempt) {
    return ConflictRetries.run(retries, attempt);
  }
}
