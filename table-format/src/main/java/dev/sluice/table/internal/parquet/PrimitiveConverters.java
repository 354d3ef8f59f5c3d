package dev.sluice.table.internal.parquet;

import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.time.LocalDate;
import java.util.function.Consumer;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Leaf converters from the encodings Spark and other engines write to Sluice's Java values: INT96,
 * INT64 millis/micros/nanos timestamps; decimals as INT32, INT64, FIXED_LEN_BYTE_ARRAY or BINARY;
 * byte/short from INT32; dates; strings and binary.
 */
final class PrimitiveConverters {
  /** Days from the Julian day epoch to 1970-01-01, for INT96 timestamps. */
  private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;

  private PrimitiveConverters() {}

  static PrimitiveConverter of(
      DataType want, org.apache.parquet.schema.PrimitiveType file, Consumer<Object> sink, String path, String column) {
    PrimitiveTypeName physical = file.getPrimitiveTypeName();
    LogicalTypeAnnotation logical = file.getLogicalTypeAnnotation();
    if (want instanceof DecimalType decimal) {
      if (!(logical instanceof DecimalLogicalTypeAnnotation fileDecimal) || physical == PrimitiveTypeName.INT96) {
        throw RowConverters.mismatch(path, column, want, file, "the file column is not a decimal");
      }
      return decimal(decimal, fileDecimal.getScale(), physical, sink);
    }
    PrimitiveType type = (PrimitiveType) want;
    Values values = switch (type) {
      case BOOLEAN -> physical == PrimitiveTypeName.BOOLEAN ? new Values() {
        @Override
        Object fromBoolean(boolean v) {
          return v;
        }
      } : null;
      case BYTE -> isInt32(physical, logical) ? new Values() {
        @Override
        Object fromInt(int v) {
          return (byte) v;
        }
      } : null;
      case SHORT -> isInt32(physical, logical) ? new Values() {
        @Override
        Object fromInt(int v) {
          return (short) v;
        }
      } : null;
      case INTEGER -> isInt32(physical, logical) ? new Values() {
        @Override
        Object fromInt(int v) {
          return v;
        }
      } : null;
      case LONG -> longValues(physical, logical);
      case FLOAT -> physical == PrimitiveTypeName.FLOAT ? new Values() {
        @Override
        Object fromFloat(float v) {
          return v;
        }
      } : null;
      case DOUBLE -> physical == PrimitiveTypeName.DOUBLE || physical == PrimitiveTypeName.FLOAT ? new Values() {
        @Override
        Object fromDouble(double v) {
          return v;
        }

        @Override
        Object fromFloat(float v) {
          return (double) v;
        }
      } : null;
      case STRING -> isBytes(physical) ? new Values() {
        @Override
        Object fromBinary(Binary v) {
          return v.toStringUsingUTF8();
        }
      } : null;
      case BINARY -> isBytes(physical) ? new Values(false /* byte[] is mutable: no shared dictionary values */) {
        @Override
        Object fromBinary(Binary v) {
          ByteBuffer buffer = v.toByteBuffer();
          byte[] out = new byte[buffer.remaining()];
          buffer.get(out);
          return out;
        }
      } : null;
      case DATE -> physical == PrimitiveTypeName.INT32 ? new Values() {
        @Override
        Object fromInt(int v) {
          return LocalDate.ofEpochDay(v);
        }
      } : null;
      case TIMESTAMP -> timestampValues(physical, logical);
      case TIMESTAMP_NTZ -> null;
    };
    if (values == null) {
      throw RowConverters.mismatch(path, column, want, file, "no conversion between these types");
    }
    return new ValueConverter(values, physical, sink);
  }

  private static boolean isInt32(PrimitiveTypeName physical, LogicalTypeAnnotation logical) {
    return physical == PrimitiveTypeName.INT32 && (logical == null
        || (logical instanceof IntLogicalTypeAnnotation i && i.isSigned()));
  }

  private static boolean isBytes(PrimitiveTypeName physical) {
    return physical == PrimitiveTypeName.BINARY || physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
  }

  private static Values longValues(PrimitiveTypeName physical, LogicalTypeAnnotation logical) {
    if (physical == PrimitiveTypeName.INT64 && (logical == null || logical instanceof IntLogicalTypeAnnotation i && i.isSigned())) {
      return new Values() {
        @Override
        Object fromLong(long v) {
          return v;
        }
      };
    }
    if (physical == PrimitiveTypeName.INT32 && (logical == null || logical instanceof IntLogicalTypeAnnotation)) {
      boolean unsigned = logical instanceof IntLogicalTypeAnnotation i && !i.isSigned();
      return new Values() {
        @Override
        Object fromInt(int v) {
          return unsigned ? Integer.toUnsignedLong(v) : (long) v;
        }
      };
    }
    return null;
  }

  private static Values timestampValues(PrimitiveTypeName physical, LogicalTypeAnnotation logical) {
    if (physical == PrimitiveTypeName.INT96) {
      return new Values() {
        @Override
        Object fromBinary(Binary v) {
          return int96(v);
        }
      };
    }
    if (physical != PrimitiveTypeName.INT64 || !(logical instanceof TimestampLogicalTypeAnnotation ts)) {
      return null;
    }
    return switch (ts.getUnit()) {
      case MILLIS -> new Values() {
        @Override
        Object fromLong(long v) {
          return Instant.ofEpochMilli(v);
        }
      };
      case MICROS -> new Values() {
        @Override
        Object fromLong(long v) {
          return Instant.ofEpochSecond(Math.floorDiv(v, 1_000_000L), Math.floorMod(v, 1_000_000L) * 1_000L);
        }
      };
      // Sluice keeps microseconds (see DataType): nanoseconds are floored, as Spark does.
      case NANOS -> new Values() {
        @Override
        Object fromLong(long v) {
          return Instant.ofEpochSecond(Math.floorDiv(v, 1_000_000_000L), Math.floorMod(v, 1_000_000_000L) / 1_000 * 1_000);
        }
      };
    };
  }

  /** INT96: 8 bytes little-endian nanoseconds of the day, then 4 bytes little-endian Julian day. */
  static Instant int96(Binary value) {
    ByteBuffer buffer = value.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    long nanosOfDay = buffer.getLong();
    long julianDay = buffer.getInt();
    long micros = nanosOfDay / 1_000;
    return Instant.ofEpochSecond((julianDay - JULIAN_DAY_OF_EPOCH) * 86_400L, micros * 1_000);
  }

  private static PrimitiveConverter decimal(DecimalType want, int fileScale, PrimitiveTypeName physical, Consumer<Object> sink) {
    int scale = want.scale();
    Values values = switch (physical) {
      case INT32, INT64 -> new Values() {
        @Override
        Object fromInt(int v) {
          return rescale(BigDecimal.valueOf(v, fileScale), scale);
        }

        @Override
        Object fromLong(long v) {
          return rescale(BigDecimal.valueOf(v, fileScale), scale);
        }
      };
      default -> new Values() {
        @Override
        Object fromBinary(Binary v) {
          return rescale(new BigDecimal(new BigInteger(v.getBytes()), fileScale), scale);
        }
      };
    };
    return new ValueConverter(values, physical, sink);
  }

  private static BigDecimal rescale(BigDecimal value, int scale) {
    return value.scale() == scale ? value : value.setScale(scale, RoundingMode.HALF_UP);
  }

  /** One column's value mapping; a method a column's physical type never calls stays unsupported. */
  private abstract static class Values {
    final boolean cacheable;

    Values() {
      this(true);
    }

    Values(boolean cacheable) {
      this.cacheable = cacheable;
    }

    Object fromBoolean(boolean v) {
      throw new UnsupportedOperationException("boolean");
    }

    Object fromInt(int v) {
      throw new UnsupportedOperationException("int");
    }

    Object fromLong(long v) {
      throw new UnsupportedOperationException("long");
    }

    Object fromFloat(float v) {
      throw new UnsupportedOperationException("float");
    }

    Object fromDouble(double v) {
      throw new UnsupportedOperationException("double");
    }

    Object fromBinary(Binary v) {
      throw new UnsupportedOperationException("binary");
    }
  }

  /** Sends converted values to the sink; decodes a dictionary once per column chunk (strings mostly). */
  private static final class ValueConverter extends PrimitiveConverter {
    private final Values values;
    private final PrimitiveTypeName physical;
    private final Consumer<Object> sink;
    private Object[] dictionary;

    ValueConverter(Values values, PrimitiveTypeName physical, Consumer<Object> sink) {
      this.values = values;
      this.physical = physical;
      this.sink = sink;
    }

    @Override
    public boolean hasDictionarySupport() {
      return values.cacheable && physical != PrimitiveTypeName.BOOLEAN;
    }

    @Override
    public void setDictionary(Dictionary dict) {
      Object[] decoded = new Object[dict.getMaxId() + 1];
      for (int id = 0; id < decoded.length; id++) {
        decoded[id] = switch (physical) {
          case INT32 -> values.fromInt(dict.decodeToInt(id));
          case INT64 -> values.fromLong(dict.decodeToLong(id));
          case FLOAT -> values.fromFloat(dict.decodeToFloat(id));
          case DOUBLE -> values.fromDouble(dict.decodeToDouble(id));
          case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 -> values.fromBinary(dict.decodeToBinary(id));
          case BOOLEAN -> throw new IllegalStateException("Parquet has no boolean dictionaries");
        };
      }
      dictionary = decoded;
    }

    @Override
    public void addValueFromDictionary(int dictionaryId) {
      sink.accept(dictionary[dictionaryId]);
    }

    @Override
    public void addBinary(Binary value) {
      sink.accept(values.fromBinary(value));
    }

    @Override
    public void addBoolean(boolean value) {
      sink.accept(values.fromBoolean(value));
    }

    @Override
    public void addDouble(double value) {
      sink.accept(values.fromDouble(value));
    }

    @Override
    public void addFloat(float value) {
      sink.accept(values.fromFloat(value));
    }

    @Override
    public void addInt(int value) {
      sink.accept(values.fromInt(value));
    }

    @Override
    public void addLong(long value) {
      sink.accept(values.fromLong(value));
    }
  }
}
