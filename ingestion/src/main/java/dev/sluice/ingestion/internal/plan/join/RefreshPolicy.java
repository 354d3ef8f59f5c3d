package dev.sluice.ingestion.internal.plan.join;

/** When a stream-static join re-reads its static side. */
public enum RefreshPolicy {
  /** Before each batch: a Delta table when it has a new version, files always. */
  EVERY_BATCH,
  /** Once, at the first batch of the query run. */
  NEVER
}
