package dev.sluice.ingestion.internal.plan.join;

/** The kinds of stream-static join: the stream is always the left side. */
public enum JoinType {
  /** Stream rows with at least one matching static row, once per match. */
  INNER,
  /** Every stream row: once per matching static row, or once with nulls for the static columns. */
  LEFT_OUTER
}
