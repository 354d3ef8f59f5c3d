package dev.sluice.ingestion.state.internal;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.io.IOException;

/**
 * A row as a null bitmap followed by its non-null values in field order. The encoding is
 * deterministic for rows without maps (a map is written in its iteration order).
 */
final class StructCodec implements ValueCodec {
  private final StructType type;
  private final String path;
  private final ValueCodec[] fields;

  /**
   * @param path how error messages name this struct, e.g. "key" or "value.window"
   * @throws IllegalArgumentException for a type the store can't keep (timestamp_ntz)
   */
  StructCodec(StructType type, String path) {
    this.type = type;
    this.path = path;
    this.fields = new ValueCodec[type.size()];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = ValueCodecs.of(type.field(i).type(), path + "." + type.field(i).name());
    }
  }

  StructType type() {
    return type;
  }

  @Override
  public void write(ByteWriter out, Object value) {
    writeRow(out, (Row) value);
  }

  @Override
  public Object read(ByteReader in) throws IOException {
    return readRow(in);
  }

  /**
   * @throws IllegalArgumentException naming the column when the row doesn't match the schema
   */
  void writeRow(ByteWriter out, Row row) {
    if (row.size() != fields.length) {
      throw new IllegalArgumentException("A state " + path + " row has " + row.size() + " values but its schema "
          + type.fieldNames() + " has " + fields.length + " columns; build state rows with the store's StateSchema");
    }
    int bitmap = out.position();
    out.writeZeros(NullBitmap.bytes(fields.length));
    for (int i = 0; i < fields.length; i++) {
      Object v = row.get(i);
      if (v == null) {
        NullBitmap.setNull(out, bitmap, i);
        continue;
      }
      try {
        fields[i].write(out, v);
      } catch (ClassCastException | NullPointerException e) {
        throw wrongValue(i, v, e);
      }
    }
  }

  Row readRow(ByteReader in) throws IOException {
    byte[] nulls = in.readBytes(NullBitmap.bytes(fields.length));
    Object[] values = new Object[fields.length];
    for (int i = 0; i < fields.length; i++) {
      if (!NullBitmap.isNull(nulls, i)) {
        values[i] = fields[i].read(in);
      }
    }
    return Row.of(values);
  }

  private IllegalArgumentException wrongValue(int i, Object v, RuntimeException cause) {
    StructField f = type.field(i);
    return new IllegalArgumentException("State " + path + " column '" + f.name() + "' has type " + f.type()
        + " but holds a " + v.getClass().getName() + " that can't be written as one (" + cause.getMessage()
        + "); use the Java mapping documented on dev.sluice.table.types.DataType", cause);
  }
}
