package dev.sluice.table.internal.parquet;

import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.SchemaMismatchException;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * One writer per column of a Delta schema: it checks a value against the column type (the Java mapping
 * of {@link DataType}) and writes it to a {@link RecordConsumer} in {@link ParquetSchemas}' layout. Checking
 * and writing are separate passes so that a bad value is found before any part of its row is written.
 */
final class ValueWriters {
  private ValueWriters() {}

  /** Checks and writes one non-null value of a column. */
  abstract static class ValueWriter {
    final DataType type;
    final String column;

    ValueWriter(DataType type, String column) {
      this.type = type;
      this.column = column;
    }

    /** @throws SchemaMismatchException if {@code value} does not fit the column; the message names it */
    abstract void check(Object value);

    /** Writes a value that {@link #check} accepted. */
    abstract void write(RecordConsumer out, Object value);

    /**
     * The value made ready for {@link #writePrepared} (a {@link Binary}, a {@code long}), so that the writer's caller
     * can do that share of the work while another thread encodes; the value itself where nothing is gained.
     */
    Object prepare(Object value) {
      return value;
    }

    /** Writes what {@link #prepare} returned. */
    void writePrepared(RecordConsumer out, Object prepared) {
      write(out, prepared);
    }

    final <T> T expect(Object value, Class<T> javaType) {
      return ValueWriters.expect(value, javaType, type, column);
    }
  }

  /** The writer of a table's rows (the Parquet message). */
  static StructWriter root(StructType schema) {
    return new StructWriter(schema, "");
  }

  private static ValueWriter of(DataType type, String column) {
    if (type instanceof StructType struct) {
      return new StructWriter(struct, column);
    }
    if (type instanceof ArrayType array) {
      return new ListWriter(array, column);
    }
    if (type instanceof MapType map) {
      return new MapWriter(map, column);
    }
    if (type instanceof DecimalType decimal) {
      return new DecimalWriter(decimal, column);
    }
    return switch ((PrimitiveType) type) {
      case STRING -> new Primitive<>(type, column, String.class) {
        // The same String as the row before (a file's _source, a batch's shared values) gives the same Binary: no
        // encoding, and the dictionary (BinaryDictionaryWriter) knows its id without a lookup. A writer belongs to
        // one file, prepared on one thread.
        private String lastString;
        private Binary lastBinary;

        @Override
        void write(RecordConsumer out, Object v) {
          out.addBinary((Binary) prepare(v));
        }

        @Override
        Object prepare(Object v) {
          if (v == lastString) {
            return lastBinary;
          }
          // Not Binary.fromString: its ByteBuffer-backed binaries make the dictionary's hash lookups and the
          // stats' comparisons several times slower.
          lastString = (String) v;
          lastBinary = Binary.fromConstantByteArray(lastString.getBytes(StandardCharsets.UTF_8));
          return lastBinary;
        }

        @Override
        void writePrepared(RecordConsumer out, Object prepared) {
          out.addBinary((Binary) prepared);
        }
      };
      case LONG -> new Primitive<>(type, column, Long.class) {
        @Override
        void write(RecordConsumer out, Object v) {
          out.addLong((Long) v);
        }
      };
      case INTEGER -> new Primitive<>(type, column, Integer.class) {
        @Override
        void write(RecordConsumer out, Object v) {
          out.addInteger((Integer) v);
        }
      };
      case SHORT -> new Primitive<>(type, column, Short.class) {
        @Override
        void write(RecordConsumer out, Object v) {
          out.addInteger((Short) v);
        }
      };
      case BYTE -> new Primitive<>(type, column, Byte.class) {
        @Override
        void write(RecordConsumer out, Object v) {
          out.addInteger((Byte) v);
        }
      };
      case DOUBLE -> new Primitive<>(type, column, Double.class) {
        @Override
        void write(RecordConsumer out, Object v) {
          out.addDouble((Double) v);
        }
      };
      case FLOAT -> new Primitive<>(type, column, Float.class) {
        @Override
        void write(RecordConsumer out, Object v) {
          out.addFloat((Float) v);
        }
      };
      case BOOLEAN -> new Primitive<>(type, column, Boolean.class) {
        @Override
        void write(RecordConsumer out, Object v) {
          out.addBoolean((Boolean) v);
        }
      };
      case BINARY -> new Primitive<>(type, column, byte[].class) {
        @Override
        void write(RecordConsumer out, Object v) {
          // "Reused": the caller still owns the array, so Parquet copies what it keeps (dictionary, stats).
          out.addBinary(Binary.fromReusedByteArray((byte[]) v));
        }
      };
      case DATE -> new Primitive<>(type, column, LocalDate.class) {
        @Override
        void write(RecordConsumer out, Object v) {
          out.addInteger((int) ((LocalDate) v).toEpochDay());
        }
      };
      case TIMESTAMP -> new Primitive<>(type, column, Instant.class) {
        @Override
        void write(RecordConsumer out, Object v) {
          out.addLong(micros((Instant) v));
        }

        /**
         * The instant itself, its microseconds computed here only to fail on the caller's thread for one out of
         * range: a boxed {@code Long} per value was ~0.2 GB of the 2 M-event medallion's allocations.
         */
        @Override
        Object prepare(Object v) {
          micros((Instant) v);
          return v;
        }

        @Override
        void writePrepared(RecordConsumer out, Object prepared) {
          out.addLong(micros((Instant) prepared));
        }
      };
      case TIMESTAMP_NTZ -> throw new IllegalStateException("timestamp_ntz is refused by ParquetSchemas");
    };
  }

  /** Microseconds since the epoch; sub-microsecond digits are dropped (floor), as Spark does. */
  static long micros(Instant instant) {
    return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  private static String qualified(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  private abstract static class Primitive<T> extends ValueWriter {
    private final Class<T> javaType;

    Primitive(DataType type, String column, Class<T> javaType) {
      super(type, column);
      this.javaType = javaType;
    }

    @Override
    final void check(Object value) {
      expect(value, javaType);
    }
  }

  /** A struct column, or (with an empty path) the whole row. */
  static final class StructWriter extends ValueWriter {
    private final StructType struct;
    private final String[] names;
    private final boolean[] nullable;
    private final ValueWriter[] fields;

    StructWriter(StructType struct, String column) {
      super(struct, column);
      this.struct = struct;
      int n = struct.size();
      names = new String[n];
      nullable = new boolean[n];
      fields = new ValueWriter[n];
      for (int i = 0; i < n; i++) {
        StructField f = struct.field(i);
        names[i] = f.name();
        nullable[i] = f.nullable();
        fields[i] = of(f.type(), qualified(column, f.name()));
      }
    }

    @Override
    void check(Object value) {
      checkRow(expect(value, Row.class));
    }

    void checkRow(Row row) {
      if (row.size() != fields.length) {
        throw new SchemaMismatchException("A row for " + (column.isEmpty() ? "the table" : "struct column '" + column + "'")
            + " has " + row.size() + " values, but the schema " + struct + " has " + fields.length
            + " columns. Build rows with one value per column, in schema order.");
      }
      for (int i = 0; i < fields.length; i++) {
        Object v = row.get(i);
        if (v != null) {
          fields[i].check(v);
        } else if (!nullable[i]) {
          throw new SchemaMismatchException("Column '" + qualified(column, names[i])
              + "' is not nullable, but a row holds null for it. Supply a value or make the column nullable.");
        }
      }
    }

    @Override
    void write(RecordConsumer out, Object value) {
      out.startGroup();
      writeFields(out, (Row) value);
      out.endGroup();
    }

    /** The writer of top-level column {@code i}. */
    ValueWriter field(int i) {
      return fields[i];
    }

    /** {@link #prepare} of each top-level value of a checked row. */
    Row prepareRow(Row row) {
      Object[] out = new Object[fields.length];
      for (int i = 0; i < out.length; i++) {
        Object v = row.get(i);
        out[i] = v == null ? null : fields[i].prepare(v);
      }
      return Row.of(out);
    }

    /** {@link #writeFields} of a row from {@link #prepareRow}. */
    void writePreparedFields(RecordConsumer out, Row prepared) {
      for (int i = 0; i < fields.length; i++) {
        Object v = prepared.get(i);
        if (v != null) {
          out.startField(names[i], i);
          fields[i].writePrepared(out, v);
          out.endField(names[i], i);
        }
      }
    }

    /** The fields of a row, nulls left out (Parquet's definition levels say they are missing). */
    void writeFields(RecordConsumer out, Row row) {
      for (int i = 0; i < fields.length; i++) {
        Object v = row.get(i);
        if (v != null) {
          out.startField(names[i], i);
          fields[i].write(out, v);
          out.endField(names[i], i);
        }
      }
    }
  }

  /** Three-level list: {@code <column> (LIST) { repeated group list { element } }}. */
  private static final class ListWriter extends ValueWriter {
    private final ArrayType array;
    private final ValueWriter element;

    ListWriter(ArrayType array, String column) {
      super(array, column);
      this.array = array;
      this.element = of(array.elementType(), column + ".element");
    }

    @Override
    void check(Object value) {
      for (Object e : expect(value, List.class)) {
        if (e != null) {
          element.check(e);
        } else if (!array.containsNull()) {
          throw new SchemaMismatchException("Column '" + column + "' is " + array
              + " without nulls, but a list holds null. Remove the null or allow null elements.");
        }
      }
    }

    @Override
    void write(RecordConsumer out, Object value) {
      List<?> list = (List<?>) value;
      out.startGroup();
      if (!list.isEmpty()) {
        out.startField("list", 0);
        for (Object e : list) {
          out.startGroup();
          if (e != null) {
            out.startField("element", 0);
            element.write(out, e);
            out.endField("element", 0);
          }
          out.endGroup();
        }
        out.endField("list", 0);
      }
      out.endGroup();
    }
  }

  /** {@code <column> (MAP) { repeated group key_value { required key; value } }}, string keys. */
  private static final class MapWriter extends ValueWriter {
    private final MapType map;
    private final ValueWriter value;

    MapWriter(MapType map, String column) {
      super(map, column);
      this.map = map;
      this.value = of(map.valueType(), column + ".value");
    }

    @Override
    void check(Object v) {
      Map<?, ?> entries = expect(v, Map.class);
      for (Map.Entry<?, ?> e : entries.entrySet()) {
        String key = ValueWriters.expect(e.getKey(), String.class, PrimitiveType.STRING, column + ".key");
        Object val = e.getValue();
        if (val != null) {
          value.check(val);
        } else if (!map.valueContainsNull()) {
          throw new SchemaMismatchException("Column '" + column + "' is " + map
              + " without null values, but key '" + key + "' maps to null. Remove it or allow null values.");
        }
      }
    }

    @Override
    void write(RecordConsumer out, Object v) {
      Map<?, ?> entries = (Map<?, ?>) v;
      out.startGroup();
      if (!entries.isEmpty()) {
        out.startField("key_value", 0);
        for (Map.Entry<?, ?> e : entries.entrySet()) {
          out.startGroup();
          out.startField("key", 0);
          out.addBinary(Binary.fromString((String) e.getKey()));
          out.endField("key", 0);
          if (e.getValue() != null) {
            out.startField("value", 1);
            value.write(out, e.getValue());
            out.endField("value", 1);
          }
          out.endGroup();
        }
        out.endField("key_value", 0);
      }
      out.endGroup();
    }
  }

  /**
   * The unscaled value as {@link ParquetSchemas#decimalLayout} says: an INT32 or INT64, or a FIXED_LEN_BYTE_ARRAY of
   * Spark's minimal width (big-endian two's complement).
   */
  static final class DecimalWriter extends ValueWriter {
    private final DecimalType decimal;
    private final PrimitiveTypeName layout;
    private final int length;

    DecimalWriter(DecimalType decimal, String column) {
      super(decimal, column);
      this.decimal = decimal;
      this.layout = ParquetSchemas.decimalLayout(decimal);
      this.length = ParquetSchemas.fixedLength(decimal.precision());
    }

    @Override
    void check(Object value) {
      BigDecimal in = expect(value, BigDecimal.class);
      BigDecimal scaled;
      try {
        scaled = in.setScale(decimal.scale(), RoundingMode.UNNECESSARY);
      } catch (ArithmeticException e) {
        throw new SchemaMismatchException("Column '" + column + "' is " + decimal + ", but " + in.toPlainString()
            + " has more than " + decimal.scale() + " fractional digits. Round the value before writing.");
      }
      if (scaled.precision() > decimal.precision()) {
        throw new SchemaMismatchException("Column '" + column + "' is " + decimal + ", but " + in.toPlainString()
            + " has more than " + decimal.precision() + " digits. Widen the column or check the value.");
      }
    }

    @Override
    void write(RecordConsumer out, Object value) {
      writePrepared(out, prepare(value));
    }

    @Override
    void writePrepared(RecordConsumer out, Object prepared) {
      switch (layout) {
        case INT32 -> out.addInteger((Integer) prepared);
        case INT64 -> out.addLong((Long) prepared);
        default -> out.addBinary((Binary) prepared);
      }
    }

    /**
     * The unscaled value of a column laid out as INT64 ({@link #prepare} boxes it): scaling a compact decimal by its
     * own scale keeps it compact, where {@code unscaledValue()} made a {@code BigInteger} per value.
     */
    long unscaledLong(Object value) {
      return ((BigDecimal) value).setScale(decimal.scale(), RoundingMode.UNNECESSARY).scaleByPowerOfTen(decimal.scale())
          .longValueExact();
    }

    @Override
    Object prepare(Object value) {
      // setScale returns the value itself when the scale already fits, the common case.
      BigDecimal scaled = ((BigDecimal) value).setScale(decimal.scale(), RoundingMode.UNNECESSARY);
      if (layout == PrimitiveTypeName.INT32) {
        return scaled.unscaledValue().intValue();
      }
      if (layout == PrimitiveTypeName.INT64) {
        return unscaledLong(scaled);
      }
      byte[] bytes = new byte[length];
      if (length <= 8) {
        long unscaled = scaled.unscaledValue().longValue();
        for (int i = length - 1; i >= 0; i--) {
          bytes[i] = (byte) unscaled;
          unscaled >>= 8;
        }
      } else {
        signExtend(scaled.unscaledValue().toByteArray(), bytes);
      }
      return Binary.fromConstantByteArray(bytes);
    }

    private static void signExtend(byte[] minimal, byte[] out) {
      int offset = out.length - minimal.length;
      byte pad = (byte) (minimal[0] < 0 ? -1 : 0);
      for (int i = 0; i < offset; i++) {
        out[i] = pad;
      }
      System.arraycopy(minimal, 0, out, offset, minimal.length);
    }
  }

  private static <T> T expect(Object value, Class<T> javaType, DataType type, String column) {
    if (!javaType.isInstance(value)) {
      throw new SchemaMismatchException("Column '" + column + "' is " + type + " and needs a "
          + javaType.getSimpleName() + ", but the row holds " + (value == null ? "null" : "a " + value.getClass().getName())
          + " (" + value
          + "). Convert the value to the column's Java type (see DataType).");
    }
    return javaType.cast(value);
  }
}
