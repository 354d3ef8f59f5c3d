package dev.sluice.ingestion;

/** Receives query lifecycle events; called on the query's thread, so implementations must be quick. */
public interface StreamingQueryListener {
  default void onQueryStarted(StreamingQuery query) {}

  default void onQueryProgress(StreamingQuery query, QueryProgress progress) {}

  /** A trigger found no new data. */
  default void onQueryIdle(StreamingQuery query) {}

  /** The query stopped; {@code failure} is null after a clean stop. */
  default void onQueryTerminated(StreamingQuery query, StreamingQueryException failure) {}
}
