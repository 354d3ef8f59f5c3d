package dev.sluice.ingestion.internal.plan;

import dev.sluice.table.types.StructType;

/** An unbound plan step: binds to the schema of its input when the query starts. */
@FunctionalInterface
public interface TransformSpec {
  /**
   * @throws IllegalArgumentException naming an unknown column or a bad expression
   */
  Transform bind(StructType input);
}
