package dev.sluice.ingestion;

import java.util.UUID;

/** The failure that terminated a streaming query; the message names the query and the batch. */
public class StreamingQueryException extends RuntimeException {
  private final UUID queryId;

  public StreamingQueryException(String message, UUID queryId, Throwable cause) {
    super(message, cause);
    this.queryId = queryId;
  }

  public UUID queryId() {
    return queryId;
  }
}
