package dev.sluice.table.internal;

import dev.sluice.table.exceptions.InvalidTableException;
import java.net.URI;

/** The messages of table-format errors a user has to act on: each says the problem, its cause and the fix. */
public final class TableErrors {
  private TableErrors() {}

  /** A data file the log references is not in the store. */
  public static InvalidTableException missingDataFile(URI table, String logPath, long version, Throwable cause) {
    return new InvalidTableException("Data file " + logPath + " of the table " + table + " does not exist, but version "
        + version + " of the table references it: it was deleted outside the table's log (by hand, a storage"
        + " lifecycle rule, or a vacuum with too short a retention). Restore the file, or remove the missing files"
        + " from the table with `sluice fsck " + table + "` (add --config <file> for the storage settings of a"
        + " config, --dry-run to list them first; Table.newRepair() from Java); the rows they held are then gone"
        + " from the table.", cause);
  }
}
