package dev.sluice.ingestion.expr;

/**
 * A SQL expression that cannot be parsed or bound: the message names the problem, where in the text
 * it is (line and column, 1-based), the offending name and, for unknown names, the known ones.
 */
public class ExpressionException extends IllegalArgumentException {
  private final int line;
  private final int column;

  public ExpressionException(String message, int line, int column) {
    super(message);
    this.line = line;
    this.column = column;
  }

  /** 1-based line of the offending text, or 0 when not known. */
  public int line() {
    return line;
  }

  /** 1-based column of the offending text, or 0 when not known. */
  public int column() {
    return column;
  }
}
