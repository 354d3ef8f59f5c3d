package dev.sluice.ingestion.stateful;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;

/**
 * Converts a user type to rows of a declared schema and back, so that state and output values can be
 * kept in state stores and written to tables (Spark's {@code Encoder}). Made by {@link Encoders}.
 *
 * @param <T> the user type
 */
public interface Encoder<T> {
  /** The schema of the rows this encoder makes. */
  StructType schema();

  /** The row of a non-null value. */
  Row toRow(T value);

  /** The value of a row of {@link #schema()}. */
  T fromRow(Row row);

  /** The Java type, for fingerprints and messages (e.g. {@code com.acme.Session}). */
  String typeName();
}
