package dev.sluice.table.internal.replay;

import dev.sluice.table.exceptions.InvalidTableException;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.actions.Protocol;
import dev.sluice.table.internal.actions.RemoveFile;
import dev.sluice.table.internal.actions.SetTransaction;
import dev.sluice.table.internal.log.LogSegment;
import dev.sluice.table.types.StructType;
import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The reconciled state of one table version: protocol, metadata, live files, unexpired tombstones and
 * application transactions. Immutable and safe to share between threads.
 *
 * <p>File maps are keyed by the canonical path ({@link FilePaths#canonicalize}); the values keep the
 * path exactly as the log wrote it.
 */
public final class SnapshotState {
  private final URI tableRoot;
  private final long version;
  private final long timestamp;
  private final Protocol protocol;
  private final Metadata metadata;
  private final StructType schema;
  private final Map<String, AddFile> activeFiles;
  private final Map<String, RemoveFile> tombstones;
  private final Map<String, SetTransaction> transactions;
  private final LogSegment segment;

  /** The maps are copied; {@code metadata.schemaString} is parsed once here. */
  public SnapshotState(URI tableRoot, long version, long timestamp, Protocol protocol, Metadata metadata,
      Map<String, AddFile> activeFiles, Map<String, RemoveFile> tombstones, Map<String, SetTransaction> transactions,
      LogSegment segment) {
    this.tableRoot = FilePaths.rootOf(Objects.requireNonNull(tableRoot, "tableRoot"));
    this.version = version;
    this.timestamp = timestamp;
    this.protocol = Objects.requireNonNull(protocol, "protocol");
    this.metadata = Objects.requireNonNull(metadata, "metadata");
    this.schema = metadata.schemaString() == null ? null : parseSchema(metadata, tableRoot);
    this.activeFiles = Collections.unmodifiableMap(new LinkedHashMap<>(activeFiles));
    this.tombstones = Collections.unmodifiableMap(new LinkedHashMap<>(tombstones));
    this.transactions = Collections.unmodifiableMap(new LinkedHashMap<>(transactions));
    this.segment = Objects.requireNonNull(segment, "segment");
  }

  private static StructType parseSchema(Metadata metadata, URI tableRoot) {
    try {
      return metadata.schema();
    } catch (IllegalArgumentException e) {
      throw new InvalidTableException("The schema of the table at " + tableRoot + " cannot be read: " + e.getMessage()
          + ". Fix the metaData action's schemaString or read the table with the engine that wrote it.", e);
    }
  }

  /** The table root URI, ending with '/'; relative file paths resolve against it. */
  public URI tableRoot() {
    return tableRoot;
  }

  public long version() {
    return version;
  }

  /**
   * The commit time of this version (epoch ms): {@code commitInfo.inCommitTimestamp} when the commit has
   * one, else the commit file's modification time, raised to one more than the previous commit's if not later.
   */
  public long timestamp() {
    return timestamp;
  }

  public Protocol protocol() {
    return protocol;
  }

  public Metadata metadata() {
    return metadata;
  }

  /**
   * The parsed table schema.
   *
   * @throws InvalidTableException if the metaData action has no schemaString
   */
  public StructType schema() {
    if (schema == null) {
      throw new InvalidTableException("The table at " + tableRoot + " has no schema: the metaData action of version "
          + version + " lacks schemaString. Rewrite the table metadata with an engine that sets a schema.");
    }
    return schema;
  }

  /** Live data files by canonical path, in log order (checkpoint first, then commits ascending). */
  public Map<String, AddFile> activeFiles() {
    return activeFiles;
  }

  /**
   * Tombstones by canonical path whose {@code deletionTimestamp} is within
   * {@code delta.deletedFileRetentionDuration} (default 1 week) of the time the state was built.
   */
  public Map<String, RemoveFile> tombstones() {
    return tombstones;
  }

  /** The latest transaction per application id. {@code delta.setTransactionRetentionDuration} is not applied. */
  public Map<String, SetTransaction> transactions() {
    return transactions;
  }

  /** The latest version committed by {@code appId}, empty if it never committed. */
  public OptionalLong transactionVersion(String appId) {
    SetTransaction txn = transactions.get(appId);
    return txn == null ? OptionalLong.empty() : OptionalLong.of(txn.version());
  }

  /** The log files this state was built from. */
  public LogSegment segment() {
    return segment;
  }

  @Override
  public String toString() {
    return "SnapshotState(" + tableRoot + " v" + version + ", " + activeFiles.size() + " files)";
  }
}
