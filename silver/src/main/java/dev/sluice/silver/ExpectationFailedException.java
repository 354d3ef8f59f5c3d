package dev.sluice.silver;

/** A row broke an expectation whose action is {@code fail}: the batch is not written. */
public final class ExpectationFailedException extends RuntimeException {
  private final String expectation;

  ExpectationFailedException(String expectation, String message) {
    super(message);
    this.expectation = expectation;
  }

  /** The name of the broken expectation. */
  public String expectation() {
    return expectation;
  }
}
