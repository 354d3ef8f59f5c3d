package dev.sluice.orchestration.cli;

/** A failure the CLI reports as one message (problem, cause and fix) with an exit code, never a stack trace. */
final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int exitCode;

  CliException(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  /** A mistake in how the command was called (exit code 2). */
  static CliException usage(String message) {
    return new CliException(message, ExitCodes.USAGE);
  }

  /** Something that went wrong while doing the work (exit code 1). */
  static CliException failed(String message) {
    return new CliException(message, ExitCodes.FAILED);
  }

  int exitCode() {
    return exitCode;
  }
}
