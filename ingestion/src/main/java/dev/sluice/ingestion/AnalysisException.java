package dev.sluice.ingestion;

/** A query that can't run as written; the message names the operator, the output mode and the fix. */
public class AnalysisException extends IllegalArgumentException {
  public AnalysisException(String message) {
    super(message);
  }
}
