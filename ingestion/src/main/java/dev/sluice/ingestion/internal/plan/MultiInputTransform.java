package dev.sluice.ingestion.internal.plan;

import dev.sluice.ingestion.Batch;
import java.util.List;

/**
 * A bound {@link MultiInputSpec}: runs each input's own steps over that input's rows, then combines them. The
 * runner finds watermarks and stateful steps inside it through {@link #nested} (they get their stores and
 * advance the query's watermark like top-level ones).
 */
public interface MultiInputTransform extends Transform {
  /** One batch per source of the query, in source order. */
  Batch applyInputs(List<Batch> perSource, BatchInfo info);

  /** Every transform inside this one (each input's steps, the step's own stateful parts), depth first. */
  List<Transform> nested();

  @Override
  default Batch apply(Batch input, BatchInfo info) {
    throw new IllegalStateException(describe() + " reads several sources; the runner calls applyInputs");
  }
}
