package dev.sluice.table;

import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.Protocol;
import dev.sluice.table.internal.log.ProtocolSupport;
import dev.sluice.table.internal.maintenance.Retention;
import dev.sluice.table.internal.maintenance.VacuumPlan;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.storage.ObjectStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Deletes the files of the table's folder that no version within the retention references (Delta's {@code VACUUM}):
 * data files removed longer ago than the retention, {@code _change_data} files of older commits, and files no commit
 * ever referenced (left by failed writes) once they are older than the retention. Versions committed within the
 * retention stay readable by time travel; older ones may not be.
 *
 * <p>Never touched: {@code _delta_log}, the streaming checkpoints in {@code _checkpoints}, and every other folder
 * whose name starts with {@code _} or {@code .} (tables kept inside, such as {@code _tombstones}). The retention
 * defaults to the table's {@code delta.deletedFileRetentionDuration} (7 days); a shorter one is refused unless
 * {@link #force} is set, because a file removed by a commit a reader or a slow writer still uses would go.
 * Tables with the {@code vacuumProtocolCheck} feature are vacuumed only when Sluice supports their writer protocol.
 */
public final class Vacuum {
  private final TableContext context;
  private Duration retention;
  private boolean dryRun;
  private boolean force;

  Vacuum(TableContext context) {
    this.context = context;
  }

  /** Keep the files that versions of this age or younger need (default: {@code delta.deletedFileRetentionDuration}). */
  public Vacuum retain(Duration value) {
    if (value.isNegative()) {
      throw new IllegalArgumentException("The retention cannot be negative, got " + value);
    }
    this.retention = value;
    return this;
  }

  /** Only list what would be deleted (default false). */
  public Vacuum dryRun(boolean value) {
    this.dryRun = value;
    return this;
  }

  /** Allow a retention shorter than the table's {@code delta.deletedFileRetentionDuration} (default false). */
  public Vacuum force(boolean value) {
    this.force = value;
    return this;
  }

  /**
   * Finds and, unless a dry run, deletes the files.
   *
   * @throws dev.sluice.table.exceptions.TableNotFoundException when there is no table at the path
   * @throws InvalidOperationException when the retention is shorter than the table's without {@link #force}
   * @throws dev.sluice.table.exceptions.UnsupportedTableFeatureException when the table has {@code
   *     vacuumProtocolCheck} and a writer feature Sluice does not support, or Sluice cannot read it
   */
  public Result execute() {
    SnapshotState snapshot = context.latestState();
    checkProtocol(snapshot);
    Duration minimum = Retention.deletedFileRetention(snapshot.metadata());
    Duration effective = retention == null ? minimum : retention;
    if (effective.compareTo(minimum) < 0 && !force) {
      throw new InvalidOperationException("VACUUM of " + context.log().store().uriOf(context.log().tablePath())
          + " with a retention of " + Retention.format(effective) + " is refused: it is shorter than the table's"
          + " delta.deletedFileRetentionDuration (" + Retention.format(minimum) + "), so files that running readers,"
          + " streams or unfinished writes still use could be deleted and the table corrupted. Keep at least "
          + Retention.format(minimum) + ", lower delta.deletedFileRetentionDuration on the table, or pass --force"
          + " (Vacuum.force(true)) when you are sure nothing reads or writes older versions.");
    }
    long cutoff = context.clock().millis() - effective.toMillis();
    long tombstoneHorizon = context.clock().millis() - minimum.toMillis();
    List<ObjectStatus> files = VacuumPlan.plan(context, snapshot, cutoff, tombstoneHorizon);
    if (!dryRun && !files.isEmpty()) {
      context.log().store().deleteAll(files.stream().map(ObjectStatus::key).toList());
    }
    long bytes = files.stream().mapToLong(ObjectStatus::size).sum();
    return new Result(dryRun, snapshot.version(), effective, Instant.ofEpochMilli(cutoff),
        files.stream().map(ObjectStatus::key).toList(), bytes);
  }

  /** Without {@code vacuumProtocolCheck} VACUUM needs only to read the table, as in Delta; with it, to write it too. */
  private void checkProtocol(SnapshotState snapshot) {
    Protocol p = snapshot.protocol();
    String table = context.log().store().uriOf(context.log().tablePath()).toString();
    boolean check = Optional.ofNullable(p.readerFeatures()).orElse(List.of()).contains(ProtocolSupport.VACUUM_PROTOCOL_CHECK)
        || Optional.ofNullable(p.writerFeatures()).orElse(List.of()).contains(ProtocolSupport.VACUUM_PROTOCOL_CHECK);
    if (check) {
      ProtocolSupport.checkWritable(p, snapshot.metadata(), table);
    } else {
      ProtocolSupport.checkReadable(p, snapshot.metadata(), table);
    }
  }

  /**
   * What a VACUUM found and did.
   *
   * @param dryRun whether it only looked
   * @param version the table version whose files were kept
   * @param retention the retention applied
   * @param cutoff files removed before this time, and unreferenced files last modified before it, were chosen
   * @param files the object keys deleted (or, on a dry run, that would be)
   * @param bytes their total size
   */
  public record Result(boolean dryRun, long version, Duration retention, Instant cutoff, List<String> files, long bytes) {
    public Result {
      files = List.copyOf(files);
    }

    public int numFiles() {
      return files.size();
    }
  }
}
