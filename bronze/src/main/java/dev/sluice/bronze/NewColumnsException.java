package dev.sluice.bronze;

/**
 * A bronze batch met a field that its schema lacks while its policy does not allow it
 * ({@code schema_evolution: failOnNewColumns}, or a nested or reserved field under {@code addNewColumns}).
 * Nothing of the batch was written; the query stops and re-runs the same batch when started again.
 */
public final class NewColumnsException extends RuntimeException {
  private final String field;
  private final String file;

  NewColumnsException(String message, String field, String file) {
    super(message);
    this.field = field;
    this.file = file;
  }

  /** The field's name (a dotted path for a nested field). */
  public String field() {
    return field;
  }

  /** The URI of the input file that has it. */
  public String file() {
    return file;
  }
}
