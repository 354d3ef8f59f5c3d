package dev.sluice.ingestion.stateful;

import dev.sluice.ingestion.stateful.internal.RecordEncoder;
import dev.sluice.ingestion.stateful.internal.RowEncoder;
import dev.sluice.ingestion.stateful.internal.SingleValueEncoder;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;

/** Factories for {@link Encoder}s (Spark's {@code Encoders}). */
public final class Encoders {
  private Encoders() {}

  /**
   * A Java record as a struct of its components, in declaration order: {@code String}, {@code long}/{@code Long},
   * {@code int}/{@code Integer}, {@code short}, {@code byte}, {@code double}, {@code float}, {@code boolean},
   * {@code byte[]}, {@code Instant} (timestamp), {@code LocalDate}, {@code BigDecimal} (decimal(38,18)), nested
   * records and {@code List}s of these. Primitive components are non-nullable.
   *
   * @throws IllegalArgumentException naming the component whose type has no column type
   */
  public static <R extends Record> Encoder<R> record(Class<R> type) {
    return RecordEncoder.of(type);
  }

  /** Rows of {@code schema} as they are (Spark's {@code Encoders.row}, a {@code StructType} state). */
  public static Encoder<Row> row(StructType schema) {
    return new RowEncoder(schema);
  }

  /** A {@code long} as a one-column struct {@code value}. */
  public static Encoder<Long> LONG() {
    return new SingleValueEncoder<>(PrimitiveType.LONG, Long.class);
  }

  /** An {@code int} as a one-column struct {@code value}. */
  public static Encoder<Integer> INT() {
    return new SingleValueEncoder<>(PrimitiveType.INTEGER, Integer.class);
  }

  /** A string as a one-column struct {@code value}. */
  public static Encoder<String> STRING() {
    return new SingleValueEncoder<>(PrimitiveType.STRING, String.class);
  }
}
