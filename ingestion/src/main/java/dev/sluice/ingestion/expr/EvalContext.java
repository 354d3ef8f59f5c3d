package dev.sluice.ingestion.expr;

import java.time.Instant;
import java.util.Objects;

/**
 * What an expression may read besides the row: {@code current_timestamp()} returns {@code
 * batchTimestamp}, so it is the same for every row of a micro-batch, as in Spark.
 */
public record EvalContext(Instant batchTimestamp) {
  public EvalContext {
    Objects.requireNonNull(batchTimestamp, "batchTimestamp");
  }

  public static EvalContext of(Instant batchTimestamp) {
    return new EvalContext(batchTimestamp);
  }
}
