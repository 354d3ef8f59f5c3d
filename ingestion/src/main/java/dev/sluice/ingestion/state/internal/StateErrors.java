package dev.sluice.ingestion.state.internal;

import java.io.IOException;

/** The messages of state store failures: what is wrong, why, and what to do. */
final class StateErrors {
  private static final String FIX =
      "restore the checkpoint's state folder from a backup, or start the query with a new checkpoint";

  private StateErrors() {}

  static IllegalStateException cannotRebuild(long stateVersion, String folder, String missingFile, String why) {
    return new IllegalStateException("Cannot rebuild state version " + stateVersion + " in " + folder + ": "
        + missingFile + " is missing (" + why + "). The checkpoint's state is incomplete (files were deleted or "
        + "not copied); " + FIX);
  }

  static IllegalStateException missingFile(String file, Exception cause) {
    return new IllegalStateException("The state file " + file + " disappeared while it was being read; it was "
        + "listed a moment before, so something else deletes files in this checkpoint; " + FIX, cause);
  }

  static IllegalStateException corruptFile(String file, IOException cause) {
    return new IllegalStateException("The state file " + file + " can't be read: " + cause.getMessage()
        + ". It was damaged or not written by Sluice's in-memory state store; " + FIX, cause);
  }

  static IllegalStateException notOpen(long version, String folder, String status) {
    return new IllegalStateException("The state store for version " + version + " of " + folder + " was " + status
        + " and can't be used any more; load the version again from its provider");
  }
}
