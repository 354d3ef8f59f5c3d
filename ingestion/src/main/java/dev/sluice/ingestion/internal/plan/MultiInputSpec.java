package dev.sluice.ingestion.internal.plan;

import dev.sluice.table.types.StructType;
import java.util.List;

/**
 * The first step of a query over several streams (a stream-stream join, a union): it binds to the schema of
 * each of the query's sources, in the order of {@code QuerySpec.sources}, and then consumes one batch per source.
 */
public interface MultiInputSpec extends TransformSpec {
  /** Binds to the sources' schemas (one per source of the query). */
  MultiInputTransform bindInputs(List<StructType> sources);

  /** The number of sources the step consumes. */
  int sourceCount();

  @Override
  default Transform bind(StructType input) {
    throw new IllegalStateException(getClass().getSimpleName() + " reads several sources; bind it with bindInputs");
  }
}
