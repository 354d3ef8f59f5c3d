package dev.sluice.table.internal.maintenance;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.actions.AddCdcFile;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.actions.RemoveFile;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.storage.ObjectStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The files a VACUUM deletes: objects under the table's folder that no version within the retention references,
 * and that were last modified before the retention cutoff (a file younger than that may belong to a write that has
 * not committed yet). Referenced, and so kept:
 *
 * <ul>
 *   <li>the live files of the latest version;
 *   <li>files removed at or after the cutoff (they make up the versions that time travel may still read);
 *   <li>{@code _change_data} files of commits at or after the cutoff;
 *   <li>the DV files ({@code deletion_vector_<uuid>.bin}) of all these files' deletion vectors; DV files no kept
 *       version refers to are deleted like unreferenced data files.
 * </ul>
 *
 * Never looked at, as in Delta: folders and files whose names start with {@code _} or {@code .} ({@code _delta_log},
 * {@code _checkpoints}, {@code _tombstones} and any other table kept inside), except {@code _change_data} and
 * partition folders of a partition column starting with {@code _}. Sibling tables ({@code orders_quarantine}) are
 * outside the folder: it is listed with a trailing {@code /}.
 */
public final class VacuumPlan {
  private static final String CHANGE_DATA = "_change_data";

  private VacuumPlan() {}

  /**
   * The objects to delete, in listing order.
   *
   * @param tombstoneHorizonMillis the oldest deletion time the snapshot still keeps tombstones for (now minus
   *     {@code delta.deletedFileRetentionDuration})
   */
  public static List<ObjectStatus> plan(TableContext context, SnapshotState snapshot, long cutoffMillis,
      long tombstoneHorizonMillis) {
    Set<String> referenced = new HashSet<>();
    for (AddFile add : snapshot.activeFiles().values()) {
      referenced.add(context.keyOf(add.path()));
      context.deletionVectorKey(add.deletionVectorJson(), add.path()).ifPresent(referenced::add);
    }
    for (RemoveFile r : snapshot.tombstones().values()) {
      if (r.deletionTimestamp() == null || r.deletionTimestamp() >= cutoffMillis) {
        referenced.add(context.keyOf(r.path()));
        context.deletionVectorKey(r.deletionVectorJson(), r.path()).ifPresent(referenced::add);
      }
    }
    List<ObjectStatus> candidates = unreferenced(context, snapshot, cutoffMillis, referenced);
    boolean changeData = candidates.stream().anyMatch(s -> s.key().contains("/" + CHANGE_DATA + "/")
        || s.key().startsWith(CHANGE_DATA + "/"));
    if (!changeData && cutoffMillis >= tombstoneHorizonMillis) {
      return candidates;
    }
    // The snapshot drops tombstones older than delta.deletedFileRetentionDuration, which a longer retention still
    // keeps, and cdc files are in no snapshot: both come from the commits themselves. Reading every commit of the
    // retention is the slow part of a VACUUM, so only done when one of them matters.
    referenced.addAll(referencedByCommits(context, cutoffMillis));
    return candidates.stream().filter(s -> !referenced.contains(s.key())).toList();
  }

  private static List<ObjectStatus> unreferenced(TableContext context, SnapshotState snapshot, long cutoffMillis,
      Set<String> referenced) {
    ObjectStore store = context.log().store();
    String root = context.log().tablePath();
    String prefix = root.isEmpty() ? "" : root + "/";
    List<String> partitionColumns = snapshot.metadata().partitionColumns();
    List<ObjectStatus> out = new ArrayList<>();
    try (CloseableIterator<ObjectStatus> it = store.list(prefix)) {
      while (it.hasNext()) {
        ObjectStatus s = it.next();
        String relative = s.key().substring(prefix.length());
        if (isHidden(relative, partitionColumns) || referenced.contains(s.key()) || s.modificationTime() >= cutoffMillis) {
          continue;
        }
        out.add(s);
      }
    }
    return out;
  }

  private static Set<String> referencedByCommits(TableContext context, long cutoffMillis) {
    Set<String> keys = new HashSet<>();
    for (Map.Entry<Long, Long> commit : context.log().commitTimeline().entrySet()) {
      if (commit.getValue() < cutoffMillis) {
        continue;
      }
      for (Action a : context.log().tryReadCommit(commit.getKey()).orElse(List.of())) {
        if (a instanceof RemoveFile r) {
          keys.add(context.keyOf(r.path()));
          context.deletionVectorKey(r.deletionVectorJson(), r.path()).ifPresent(keys::add);
        } else if (a instanceof AddCdcFile cdc) {
          keys.add(context.keyOf(cdc.path()));
        } else if (a instanceof AddFile add) {
          keys.add(context.keyOf(add.path()));
          context.deletionVectorKey(add.deletionVectorJson(), add.path()).ifPresent(keys::add);
        }
      }
    }
    return keys;
  }

  /** Whether Delta ignores {@code relative} (a key below the table root) as not data. */
  static boolean isHidden(String relative, List<String> partitionColumns) {
    for (String part : relative.split("/")) {
      if (!(part.startsWith("_") || part.startsWith("."))) {
        continue;
      }
      if (part.equals(CHANGE_DATA) || partitionColumns.stream().anyMatch(c -> part.startsWith(c + "="))) {
        continue;
      }
      return true;
    }
    return false;
  }
}
