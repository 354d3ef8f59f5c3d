package dev.sluice.ingestion.stateful.internal;

import dev.sluice.ingestion.stateful.Encoder;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;

/** Rows of a declared schema, kept as they are. */
public record RowEncoder(StructType schema) implements Encoder<Row> {
  @Override
  public Row toRow(Row value) {
    if (value.size() != schema.size()) {
      throw new IllegalArgumentException("A row of " + value.size() + " values doesn't fit the declared schema "
          + schema.fieldNames() + "; build rows with one value per column");
    }
    return value;
  }

  @Override
  public Row fromRow(Row row) {
    return row;
  }

  @Override
  public String typeName() {
    return "row" + schema.fieldNames();
  }
}
