package dev.sluice.orchestration.diagnose;

/** How bad a finding is; the worst finding of a diagnosis decides {@code sluice diagnose}'s exit code. */
public enum Severity {
  /** Nothing to do. */
  OK(0),
  /** The pipeline can run, but something needs a look (a pending batch, a held lease, many small files). */
  WARNING(1),
  /** The pipeline can't run as configured (the plan doesn't fit the checkpoint, a source is unreachable). */
  ERROR(2);

  private final int exitCode;

  Severity(int exitCode) {
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }

  public Severity worse(Severity other) {
    return other.ordinal() > ordinal() ? other : this;
  }
}
