package dev.sluice.ingestion.stateful.internal;

import dev.sluice.ingestion.stateful.Encoder;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;

/** One value as a one-column struct named {@code value} (Spark's {@code Encoders.LONG()} and friends). */
public final class SingleValueEncoder<T> implements Encoder<T> {
  private final StructType schema;
  private final Class<T> type;

  public SingleValueEncoder(DataType type, Class<T> javaType) {
    this.schema = StructType.of(StructField.of("value", type));
    this.type = javaType;
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Row toRow(T value) {
    return Row.of(value);
  }

  @Override
  public T fromRow(Row row) {
    return type.cast(row.get(0));
  }

  @Override
  public String typeName() {
    return type.getName();
  }
}
