package dev.sluice.table.types;

/**
 * A column type, exactly as Delta spells it in a table's {@code schemaString}.
 *
 * <p>Java value mapping used everywhere in Sluice: string → {@link String}, long → {@link Long},
 * integer → {@link Integer}, short → {@link Short}, byte → {@link Byte}, double → {@link Double},
 * float → {@link Float}, boolean → {@link Boolean}, binary → {@code byte[]}, date →
 * {@link java.time.LocalDate}, timestamp → {@link java.time.Instant} (UTC, microsecond precision),
 * decimal → {@link java.math.BigDecimal}, struct → {@link dev.sluice.table.data.Row}, array →
 * {@link java.util.List}, map → {@link java.util.Map}. A null value is Java {@code null}.
 */
public sealed interface DataType permits PrimitiveType, DecimalType, StructType, ArrayType, MapType {

  /** The type's name in Delta's schema JSON, e.g. {@code "long"}, {@code "decimal(10,2)"}, {@code "struct"}. */
  String typeName();

  /** True for types with a total order that data skipping may use (numbers, dates, timestamps, strings). */
  default boolean isOrderable() {
    return false;
  }
}
