package dev.sluice.table;

import dev.sluice.table.exceptions.TableNotFoundException;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.log.DeltaLog;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.storage.ObjectStores;
import dev.sluice.table.types.StructType;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A Delta Lake table at a path in an object store: the entry point for snapshots (latest, by version,
 * by timestamp), scans, history, the change data feed and every write (create, append, overwrite,
 * delete, MERGE). Thread-safe; each read or write works on its own snapshot.
 */
public final class Table {
  private final TableContext context;

  private Table(TableContext context) {
    this.context = context;
  }

  /** The table whose root is {@code path} (a key prefix, e.g. {@code "silver/orders"}) in {@code store}. */
  public static Table forPath(ObjectStore store, String path) {
    return new Table(new TableContext(new DeltaLog(store, path)));
  }

  /** The table at a {@code file:} or {@code s3://bucket/prefix} URI; see {@link ObjectStores#open(URI, Map)} for options. */
  public static Table forUri(URI uri, Map<String, String> storageOptions) {
    return forPath(ObjectStores.open(uri, storageOptions), "");
  }

  public ObjectStore store() {
    return context.log().store();
  }

  /** The table's root key in its store. */
  public String path() {
    return context.log().tablePath();
  }

  public URI uri() {
    return store().uriOf(path());
  }

  /** True when the table has at least one commit. */
  public boolean exists() {
    return context.log().exists();
  }

  /** The newest committed version, or empty when the table doesn't exist yet. */
  public OptionalLong latestVersion() {
    return context.log().latestVersion();
  }

  /**
   * The newest snapshot.
   *
   * @throws TableNotFoundException when there is no table at the path
   */
  public Snapshot latestSnapshot() {
    return new Snapshot(context, context.latestState());
  }

  /** The snapshot at {@code version} (time travel). */
  public Snapshot snapshotAt(long version) {
    return new Snapshot(context, context.log().snapshotAt(version));
  }

  /** The snapshot of the newest commit at or before {@code timestamp} (time travel). */
  public Snapshot snapshotAsOf(Instant timestamp) {
    return new Snapshot(context, context.log().snapshotAsOf(timestamp.toEpochMilli()));
  }

  /** The latest version committed for {@code appId}'s {@code txn}, or empty; the basis of idempotent writes. */
  public OptionalLong transactionVersion(String appId) {
    return exists() ? latestSnapshot().transactionVersion(appId) : OptionalLong.empty();
  }

  /** The commitInfo of each version, newest first, at most {@code limit} entries. */
  public List<HistoryEntry> history(int limit) {
    return context.log().history(limit).stream().map(h -> {
      var ci = h.commitInfo();
      Instant ts = Instant.ofEpochMilli(h.timestamp());
      if (ci == null) {
        return new HistoryEntry(h.version(), ts, null, Map.of(), Map.of(), null, null, null, null);
      }
      return new HistoryEntry(h.version(), ts, ci.operation(), ci.operationParameters(), ci.operationMetrics(),
          ci.readVersion(), ci.isBlindAppend(), ci.engineInfo(), ci.txnId());
    }).toList();
  }

  /** Starts creating the table with {@code schema}. */
  public CreateTable create(StructType schema) {
    return new CreateTable(context, schema);
  }

  /** Starts a blind append. */
  public Append newAppend() {
    return new Append(context);
  }

  /** Starts an overwrite of the whole table or of the partitions matching a predicate. */
  public Overwrite newOverwrite() {
    return new Overwrite(context);
  }

  /** Starts a delete of the rows matching a predicate. */
  public Delete newDelete() {
    return new Delete(context);
  }

  /** Starts a MERGE of source rows by key. */
  public Merge newMerge() {
    return new Merge(context);
  }

  /**
   * Starts a repair that removes from the table the data files its log references but the store no longer holds
   * (Databricks' {@code FSCK REPAIR TABLE}); read errors naming a missing data file point here.
   */
  public Repair newRepair() {
    return new Repair(context);
  }

  /**
   * Starts an OPTIMIZE: compacts files below the target size, optionally in Z-order or clustered by columns, in a
   * {@code dataChange=false} commit that streams reading the table skip.
   */
  public Optimize optimize() {
    return new Optimize(context);
  }

  /** Starts a VACUUM: deletes the files no version within the retention (default 7 days) references. */
  public Vacuum vacuum() {
    return new Vacuum(context);
  }

  /** Starts a cleanup of expired log files (older than {@code delta.logRetentionDuration}, below a checkpoint). */
  public LogCleanup cleanUpLog() {
    return new LogCleanup(context);
  }

  /**
   * The change data feed from {@code startVersion} to {@code endVersion} (both inclusive): each
   * changed row with {@code _change_type}, {@code _commit_version} and {@code _commit_timestamp}.
   */
  public ChangeFeed changes(long startVersion, long endVersion) {
    return new ChangeFeed(context, startVersion, endVersion);
  }

  /** Writes a checkpoint of the latest version now (commits also write one every {@code delta.checkpointInterval}). */
  public void checkpoint() {
    context.log().checkpoint(context.latestState());
  }

  @Override
  public String toString() {
    return "Table(" + uri() + ")";
  }
}
