package dev.sluice.orchestration.cli;

/** The exit codes of every {@code sluice} command. */
final class ExitCodes {
  /** Everything asked was done. */
  static final int OK = 0;
  /** A run or read failed (a pipeline failed, storage was unreachable, …). */
  static final int FAILED = 1;
  /** Bad usage or a bad config file: nothing was run. */
  static final int USAGE = 2;

  private ExitCodes() {}
}
