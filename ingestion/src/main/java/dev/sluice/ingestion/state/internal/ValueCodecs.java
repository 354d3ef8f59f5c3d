package dev.sluice.ingestion.state.internal;

import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The type-directed encodings: integers as zig-zag varints (counts and ids are small), floating
 * point as raw IEEE bits (so every value, NaN payloads included, reads back equal), strings and
 * binary length-prefixed, timestamps as epoch seconds + nanos, decimals with their own scale
 * (BigDecimal equality compares scales), containers as a count, a null bitmap and the elements.
 */
final class ValueCodecs {
  private ValueCodecs() {}

  /** The codec of {@code type}; {@code path} names the column in error messages. */
  static ValueCodec of(DataType type, String path) {
    if (type instanceof StructType struct) {
      return new StructCodec(struct, path);
    }
    if (type instanceof ArrayType array) {
      return new ArrayCodec(of(array.elementType(), path + "[]"));
    }
    if (type instanceof MapType map) {
      return new MapCodec(of(map.keyType(), path + ".key"), of(map.valueType(), path + ".value"));
    }
    if (type instanceof DecimalType) {
      return DECIMAL;
    }
    return primitive((PrimitiveType) type, path);
  }

  /**
   * The codec of {@code type} for a batch's spill file, which only this process reads back: timestamps there are
   * fixed-width (8 bytes of seconds, 4 of nanos), which encodes and decodes without varint loops at about the size
   * of the state files' varints (a timestamp of today takes 9 bytes as two varints). Other types as in {@link #of}.
   */
  static ValueCodec forSpill(DataType type, String path) {
    return type == PrimitiveType.TIMESTAMP ? SPILL_TIMESTAMP : of(type, path);
  }

  private static final ValueCodec SPILL_TIMESTAMP = new ValueCodec() {
    @Override
    public void write(ByteWriter out, Object value) {
      Instant instant = (Instant) value;
      out.writeFixedLong(instant.getEpochSecond());
      out.writeFixedInt(instant.getNano());
    }

    @Override
    public Object read(ByteReader in) throws IOException {
      long seconds = in.readFixedLong();
      return Instant.ofEpochSecond(seconds, in.readFixedInt());
    }

    @Override
    public void skip(ByteReader in) throws IOException {
      in.skip(12);
    }
  };

  private static ValueCodec primitive(PrimitiveType type, String path) {
    return switch (type) {
      case STRING -> STRING;
      case LONG -> LONG;
      case INTEGER -> INTEGER;
      case SHORT -> SHORT;
      case BYTE -> BYTE;
      case DOUBLE -> DOUBLE;
      case FLOAT -> FLOAT;
      case BOOLEAN -> BOOLEAN;
      case BINARY -> BINARY;
      case DATE -> DATE;
      case TIMESTAMP -> TIMESTAMP;
      case TIMESTAMP_NTZ -> throw new IllegalArgumentException("State column '" + path
          + "' has type timestamp_ntz, which Sluice does not support; use timestamp (java.time.Instant)");
    };
  }

  private static final ValueCodec STRING = new ValueCodec() {
    @Override
    public void write(ByteWriter out, Object value) {
      out.writeUtf8((String) value);
    }

    @Override
    public Object read(ByteReader in) throws IOException {
      return in.readUtf8();
    }

    @Override
    public void skip(ByteReader in) throws IOException {
      in.skip(in.readLength());
    }
  };

  private static final ValueCodec LONG = new ValueCodec() {
    @Override
    public void write(ByteWriter out, Object value) {
      out.writeSignedVarLong((Long) value);
    }

    @Override
    public Object read(ByteReader in) throws IOException {
      return in.readSignedVarLong();
    }
  };

  private static final ValueCodec INTEGER = new ValueCodec() {
    @Override
    public void write(ByteWriter out, Object value) {
      out.writeSignedVarLong((Integer) value);
    }

    @Override
    public Object read(ByteReader in) throws IOException {
      return (int) in.readSignedVarLong();
    }
  };

  private static final ValueCodec SHORT = new ValueCodec() {
    @Override
    public void write(ByteWriter out, Object value) {
      out.writeSignedVarLong((Short) value);
    }

    @Override
    public Object read(ByteReader in) throws IOException {
      return (short) in.readSignedVarLong();
    }
  };

  private static final ValueCodec BYTE = new ValueCodec() {
    @Override
    public void write(ByteWriter out, Object value) {
      out.writeByte((Byte) value);
    }

    @Override
    public Object read(ByteReader in) throws IOException {
      return (byte) in.readByte();
    }
  };

  private static final ValueCodec DOUBLE = new ValueCodec() {
    @Override
    public void write(ByteWriter out, Object value) {
      out.writeFixedLong(Double.doubleToRawLongBits((Double) value));
    }

    @Override
    public Object read(ByteReader in) throws IOException {
      return Double.longBitsToDouble(in.readFixedLong());
    }
  };

  private static final ValueCodec FLOAT = new ValueCodec() {
    @Override
    public void write(ByteWriter out, Object value) {
      out.writeFixedInt(Float.floatToRawIntBits((Float) value));
    }

    @Override
    public Object read(ByteReader in) throws IOException {
      return Float.intBitsToFloat(in.readFixedInt());
    }
  };

  private static final ValueCodec BOOLEAN = new ValueCodec() {
    @Override
    public void write(ByteWriter out, Object value) {
      out.writeByte((Boolean) value ? 1 : 0);
    }

    @Override
    public Object read(ByteReader in) throws IOException {
      return in.readByte() != 0;
    }
  };

  private static final ValueCodec BINARY = new ValueCodec() {
    @Override
    public void write(ByteWriter out, Object value) {
      out.writeLengthPrefixed((byte[]) value);
    }

    @Override
    public Object read(ByteReader in) throws IOException {
      return in.readLengthPrefixed();
    }

    @Override
    public void skip(ByteReader in) throws IOException {
      in.skip(in.readLength());
    }
  };

  private static final ValueCodec DATE = new ValueCodec() {
    @Override
    public void write(ByteWriter out, Object value) {
      out.writeSignedVarLong(((LocalDate) value).toEpochDay());
    }

    @Override
    public Object read(ByteReader in) throws IOException {
      return LocalDate.ofEpochDay(in.readSignedVarLong());
    }
  };

  private static final ValueCodec TIMESTAMP = new ValueCodec() {
    @Override
    public void write(ByteWriter out, Object value) {
      Instant instant = (Instant) value;
      out.writeSignedVarLong(instant.getEpochSecond());
      out.writeVarLong(instant.getNano());
    }

    @Override
    public Object read(ByteReader in) throws IOException {
      long seconds = in.readSignedVarLong();
      return Instant.ofEpochSecond(seconds, in.readVarLong());
    }
  };

  private static final ValueCodec DECIMAL = new ValueCodec() {
    @Override
    public void write(ByteWriter out, Object value) {
      BigDecimal decimal = (BigDecimal) value;
      out.writeSignedVarLong(decimal.scale());
      if (decimal.precision() <= 18) {
        // The bytes BigInteger.toByteArray gives, without making the BigInteger and its array.
        long unscaled = decimal.unscaledValue().longValue();
        int bytes = (64 - Long.numberOfLeadingZeros(unscaled ^ (unscaled >> 63))) / 8 + 1;
        out.writeVarLong(bytes);
        out.writeBigEndianLong(unscaled, bytes);
      } else {
        out.writeLengthPrefixed(decimal.unscaledValue().toByteArray());
      }
    }

    @Override
    public Object read(ByteReader in) throws IOException {
      int scale = (int) in.readSignedVarLong();
      int n = in.readLength();
      if (n >= 1 && n <= 8) {
        return BigDecimal.valueOf(in.readBigEndianLong(n), scale);
      }
      return new BigDecimal(new BigInteger(in.readBytes(n)), scale);
    }

    @Override
    public void skip(ByteReader in) throws IOException {
      in.readSignedVarLong();
      in.skip(in.readLength());
    }
  };

  /** Elements may be null whatever {@code containsNull} says: the bitmap costs one bit each. */
  private record ArrayCodec(ValueCodec element) implements ValueCodec {
    @Override
    public void write(ByteWriter out, Object value) {
      List<?> list = (List<?>) value;
      int n = list.size();
      out.writeVarLong(n);
      int bitmap = out.position();
      out.writeZeros(NullBitmap.bytes(n));
      int i = 0;
      for (Object e : list) {
        if (e == null) {
          NullBitmap.setNull(out, bitmap, i);
        } else {
          element.write(out, e);
        }
        i++;
      }
    }

    @Override
    public Object read(ByteReader in) throws IOException {
      int n = (int) in.readVarLong();
      byte[] nulls = in.readBytes(NullBitmap.bytes(n));
      List<Object> list = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        list.add(NullBitmap.isNull(nulls, i) ? null : element.read(in));
      }
      return Collections.unmodifiableList(list);
    }
  }

  /** Map keys are never null (Delta forbids it); values may be. Reads keep the written order. */
  private record MapCodec(ValueCodec key, ValueCodec value) implements ValueCodec {
    @Override
    public void write(ByteWriter out, Object v) {
      Map<?, ?> map = (Map<?, ?>) v;
      int n = map.size();
      out.writeVarLong(n);
      int bitmap = out.position();
      out.writeZeros(NullBitmap.bytes(n));
      int i = 0;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        key.write(out, e.getKey());
        if (e.getValue() == null) {
          NullBitmap.setNull(out, bitmap, i);
        } else {
          value.write(out, e.getValue());
        }
        i++;
      }
    }

    @Override
    public Object read(ByteReader in) throws IOException {
      int n = (int) in.readVarLong();
      byte[] nulls = in.readBytes(NullBitmap.bytes(n));
      Map<Object, Object> map = new LinkedHashMap<>(Math.max(4, n * 4 / 3 + 1));
      for (int i = 0; i < n; i++) {
        Object k = key.read(in);
        map.put(k, NullBitmap.isNull(nulls, i) ? null : value.read(in));
      }
      return Collections.unmodifiableMap(map);
    }
  }
}
