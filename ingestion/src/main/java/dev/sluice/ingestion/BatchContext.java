package dev.sluice.ingestion;

import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * What a {@code foreachBatch} function knows about its micro-batch: the id of its query, the batch id and the
 * counters of the plan's steps. The query id is the one stored in the checkpoint's {@code metadata}: it stays
 * the same across restarts and changes when the checkpoint is deleted, so an idempotency id built from it
 * ({@link #appId()}) never collides with the {@code txn} versions an older checkpoint left in a table, as in
 * Spark's Delta sink.
 *
 * @param metrics the batch's counters (e.g. expectation results, ledger terms, static table versions): the map
 *     the batch's progress reports as {@code observedMetrics}, so counters the function puts into it (e.g. what
 *     its write did) are reported too
 */
public record BatchContext(UUID queryId, long batchId, Map<String, Long> metrics) {
  public BatchContext {
    Objects.requireNonNull(queryId, "queryId");
    Objects.requireNonNull(metrics, "metrics");
  }

  /** The {@code txn} appId of the batch's write to its main table: the query id. */
  public String appId() {
    return queryId.toString();
  }

  /** The {@code txn} appId of a further table the batch writes: {@code <query id>:<part>}, e.g. {@code :quarantine}. */
  public String appId(String part) {
    return appId(queryId, part);
  }

  /** {@code <query id>:<part>}, for steps that write a table of their own (see {@link BatchTransformer.Context}). */
  public static String appId(UUID queryId, String part) {
    return queryId + ":" + part;
  }
}
