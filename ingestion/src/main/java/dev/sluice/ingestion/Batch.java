package dev.sluice.ingestion;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.List;

/** The rows of one micro-batch (or of one source's part of it), held in memory, with their schema. */
public record Batch(StructType schema, List<Row> rows) {
  public Batch {
    rows = List.copyOf(rows);
  }

  public static Batch empty(StructType schema) {
    return new Batch(schema, List.of());
  }

  public int size() {
    return rows.size();
  }
}
