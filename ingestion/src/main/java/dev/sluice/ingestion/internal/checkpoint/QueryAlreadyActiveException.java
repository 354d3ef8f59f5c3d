package dev.sluice.ingestion.internal.checkpoint;

/** Another runner of the same query (same checkpoint) wrote the batch this runner was about to write. */
public class QueryAlreadyActiveException extends IllegalStateException {
  public QueryAlreadyActiveException(String message) {
    super(message);
  }
}
