package dev.sluice.ingestion;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** A running (or finished) streaming query: Spark's {@code StreamingQuery} handle. */
public interface StreamingQuery {
  /** Stable across restarts from the same checkpoint (kept in the checkpoint's {@code metadata}). */
  UUID id();

  /** New on every start. */
  UUID runId();

  /** The query name, or null. */
  String name();

  boolean isActive();

  /** What the query is doing now: a short message, whether data is available and whether a trigger is running. */
  QueryStatus status();

  /** The progress of the last batch, or empty before the first one. */
  Optional<QueryProgress> lastProgress();

  /** The progress of the last 100 batches, oldest first. */
  List<QueryProgress> recentProgress();

  /** Waits until the query stops; rethrows its failure as a {@link StreamingQueryException}. */
  void awaitTermination();

  /** Waits at most {@code timeout}; returns whether the query stopped. Rethrows a failure. */
  boolean awaitTermination(Duration timeout);

  /** Blocks until every source's data available now has been processed and committed (for tests). */
  void processAllAvailable();

  /** Stops at the next batch boundary: the running batch finishes (or is abandoned before its sink commit), nothing half-committed. */
  void stop();

  /** The failure that stopped the query, if any. */
  Optional<StreamingQueryException> exception();
}
