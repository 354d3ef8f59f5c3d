package dev.sluice.ingestion.internal.plan;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;

/** Receives rows a stateful step dropped as late, so that a pipeline can keep them instead of losing them. */
public interface LateRows {
  void add(String operatorName, StructType schema, Row row, long watermarkMs);

  LateRows NONE = (operator, schema, row, watermark) -> {};
}
