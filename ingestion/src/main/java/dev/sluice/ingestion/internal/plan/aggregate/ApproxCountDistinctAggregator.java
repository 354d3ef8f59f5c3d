package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/**
 * {@code approx_count_distinct(column[, rsd])}: HyperLogLog registers in state as binary, values hashed
 * with XXH64 and seed 42 the way Spark hashes them (int-sized types as 4 bytes, long-sized as 8,
 * strings as UTF-8, decimals up to 18 digits by their unscaled long, timestamps as microseconds).
 * Nulls are not counted; the result is a long, never null.
 */
final class ApproxCountDistinctAggregator implements Aggregator {
  private static final long SEED = 42L;

  private final String name;
  private final int column;
  private final DataType type;
  private final int precision;

  ApproxCountDistinctAggregator(String name, int column, DataType type, double relativeSd) {
    this.name = name;
    this.column = column;
    this.type = type;
    this.precision = HyperLogLog.precision(relativeSd);
  }

  @Override
  public List<StructField> bufferFields() {
    return List.of(StructField.of("registers", PrimitiveType.BINARY, false));
  }

  @Override
  public StructField resultField() {
    return StructField.of(name, PrimitiveType.LONG, false);
  }

  @Override
  public void init(Object[] buffer, int at) {
    buffer[at] = HyperLogLog.registers(precision);
  }

  @Override
  public void detach(Object[] buffer, int at) {
    buffer[at] = ((byte[]) buffer[at]).clone();
  }

  @Override
  public void update(Object[] buffer, int at, Row input) {
    Object v = input.get(column);
    if (v != null) {
      HyperLogLog.add((byte[]) buffer[at], hash(v, type));
    }
  }

  @Override
  public Object result(Object[] buffer, int at) {
    return HyperLogLog.estimate((byte[]) buffer[at]);
  }

  static long hash(Object v, DataType type) {
    if (type instanceof DecimalType d) {
      BigDecimal value = ((BigDecimal) v).setScale(d.scale(), RoundingMode.HALF_UP);
      return d.precision() <= 18 ? XxHash64.hashLong(value.unscaledValue().longValue(), SEED)
          : XxHash64.hash(value.unscaledValue().toByteArray(), SEED);
    }
    if (type instanceof PrimitiveType p) {
      switch (p) {
        case BOOLEAN: return XxHash64.hashInt((Boolean) v ? 1 : 0, SEED);
        case BYTE: case SHORT: case INTEGER: return XxHash64.hashInt(((Number) v).intValue(), SEED);
        case LONG: return XxHash64.hashLong((Long) v, SEED);
        case FLOAT: return XxHash64.hashInt(Float.floatToIntBits(normalize((Float) v)), SEED);
        case DOUBLE: return XxHash64.hashLong(Double.doubleToLongBits(normalize((Double) v)), SEED);
        case STRING: return XxHash64.hash(((String) v).getBytes(StandardCharsets.UTF_8), SEED);
        case BINARY: return XxHash64.hash((byte[]) v, SEED);
        case DATE: return XxHash64.hashInt((int) ((LocalDate) v).toEpochDay(), SEED);
        case TIMESTAMP: return XxHash64.hashLong(TimeWindows.micros((Instant) v), SEED);
        default: break;
      }
    }
    // Structs, arrays and maps: distinct by their printed value, which is distinct when the value is.
    return XxHash64.hash(String.valueOf(v).getBytes(StandardCharsets.UTF_8), SEED);
  }

  private static float normalize(float f) {
    return f == -0.0f ? 0.0f : f;
  }

  private static double normalize(double d) {
    return d == -0.0d ? 0.0d : d;
  }

  @Override
  public void merge(Object[] into, int at, Object[] from, int fromAt) {
    byte[] a = (byte[]) into[at];
    byte[] b = (byte[]) from[fromAt];
    for (int i = 0; i < a.length; i++) {
      a[i] = (byte) Math.max(a[i], b[i]);
    }
  }
}
