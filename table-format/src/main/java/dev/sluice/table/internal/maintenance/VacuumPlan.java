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
 *   <li>{@code _change_data} files of commits at or after the cutoff.
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

  /** The objects to delete, in listing order. */
  public static List<ObjectStatus> plan(TableContext context, SnapshotState snapshot, long cutoffMillis) {
    Set<String> referenced = referenced(context, snapshot, cutoffMillis);
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

  private static Set<String> referenced(TableContext context, SnapshotState snapshot, long cutoffMillis) {
    Set<String> keys = new HashSet<>();
    for (AddFile add : snapshot.activeFiles().values()) {
      keys.add(context.keyOf(add.path()));
    }
    for (RemoveFile r : snapshot.tombstones().values()) {
      if (r.deletionTimestamp() == null || r.deletionTimestamp() >= cutoffMillis) {
        keys.add(context.keyOf(r.path()));
      }
    }
    // The snapshot drops tombstones older than delta.deletedFileRetentionDuration; a longer VACUUM retention
    // still has to keep them, and cdc files are in no snapshot: both come from the commits themselves.
    for (Map.Entry<Long, Long> commit : context.log().commitTimeline().entrySet()) {
      if (commit.getValue() < cutoffMillis) {
        continue;
      }
      for (Action a : context.log().tryReadCommit(commit.getKey()).orElse(List.of())) {
        if (a instanceof RemoveFile r) {
          keys.add(context.keyOf(r.path()));
        } else if (a instanceof AddCdcFile cdc) {
          keys.add(context.keyOf(cdc.path()));
        } else if (a instanceof AddFile add) {
          keys.add(context.keyOf(add.path()));
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
