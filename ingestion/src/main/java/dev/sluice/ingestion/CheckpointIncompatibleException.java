package dev.sluice.ingestion;

import java.util.List;

/**
 * The query's stateful plan differs from the one its checkpoint was written by; nothing was read or
 * written. The message lists each difference and what to do.
 */
public class CheckpointIncompatibleException extends IllegalStateException {
  private final List<String> differences;

  public CheckpointIncompatibleException(String message, List<String> differences) {
    super(message);
    this.differences = List.copyOf(differences);
  }

  public List<String> differences() {
    return differences;
  }
}
