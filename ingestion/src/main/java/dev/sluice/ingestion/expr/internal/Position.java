package dev.sluice.ingestion.expr.internal;

/** A 1-based line and column in SQL text; 0/0 when unknown. */
record Position(int line, int column) {
  static final Position UNKNOWN = new Position(0, 0);
}
