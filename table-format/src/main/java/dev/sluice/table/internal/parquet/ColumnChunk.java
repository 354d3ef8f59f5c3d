package dev.sluice.table.internal.parquet;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.time.LocalDate;
import java.util.function.ToLongFunction;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;

/**
 * Up to {@link #ROWS} rows of a flat schema's file (every column a primitive or a decimal: one Parquet leaf each),
 * made ready for Parquet on the writer's caller thread into one array per column (a {@code long} per timestamp, a
 * {@link Binary} per string) and a null flag per row. The encoder thread then writes a column's values to its column
 * writer in one loop ({@link ColumnFileWriter#write(ColumnChunk)}). Written row by row, each row had been made into a
 * prepared row (an array, a box per number) and its values handed out through a call per column whose target changed
 * from value to value (~15 % of bronze's encoder samples sat in that loop and its calls).
 *
 * <p>A chunk is filled by one thread, then encoded by another and handed back to be filled again (see
 * {@link ParquetDataWriter}): the hand-overs go through the encoder pipeline's queue and a blocking queue.
 */
final class ColumnChunk {
  static final int ROWS = EncoderPipeline.CHUNK_ROWS;

  private final Column[] columns;
  private int size;

  private ColumnChunk(Column[] columns) {
    this.columns = columns;
  }

  /** Whether {@link #of} takes the schema: no nested column. */
  static boolean fits(StructType schema) {
    for (StructField f : schema.fields()) {
      if (!(f.type() instanceof DecimalType) && !(f.type() instanceof PrimitiveType)) {
        return false;
      }
    }
    return true;
  }

  /**
   * An empty chunk for rows of {@code schema} ({@link #fits} it), whose strings and decimals are prepared by
   * {@code root}'s column writers (which remember the last string; so one file's chunks are filled on one thread).
   */
  static ColumnChunk of(StructType schema, ValueWriters.StructWriter root) {
    Column[] columns = new Column[schema.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = column(schema.field(i), root.field(i));
    }
    return new ColumnChunk(columns);
  }

  private static Column column(StructField f, ValueWriters.ValueWriter writer) {
    int d = f.nullable() ? 1 : 0; // the definition level of a present value
    if (f.type() instanceof DecimalType decimal) {
      return switch (ParquetSchemas.decimalLayout(decimal)) {
        case INT32 -> new Numbers(d, true, v -> (Integer) writer.prepare(v));
        case INT64 -> new Numbers(d, false, ((ValueWriters.DecimalWriter) writer)::unscaledLong);
        default -> new Binaries(d, writer);
      };
    }
    return switch ((PrimitiveType) f.type()) {
      case STRING -> new Binaries(d, writer);
      case LONG -> new Numbers(d, false, v -> (Long) v);
      case INTEGER -> new Numbers(d, true, v -> (Integer) v);
      case SHORT -> new Numbers(d, true, v -> (Short) v);
      case BYTE -> new Numbers(d, true, v -> (Byte) v);
      case DATE -> new Numbers(d, true, v -> ((LocalDate) v).toEpochDay());
      case TIMESTAMP -> new Numbers(d, false, v -> ValueWriters.micros((Instant) v));
      case DOUBLE -> new Boxed(d, (out, v, def) -> out.write((double) (Double) v, 0, def));
      case FLOAT -> new Boxed(d, (out, v, def) -> out.write((float) (Float) v, 0, def));
      case BOOLEAN -> new Boxed(d, (out, v, def) -> out.write((boolean) (Boolean) v, 0, def));
      // "Reused": the caller still owns the array, so Parquet copies what it keeps (dictionary, stats).
      case BINARY -> new Binaries(d, v -> Binary.fromReusedByteArray((byte[]) v));
      case TIMESTAMP_NTZ -> throw new IllegalStateException("timestamp_ntz is refused by ParquetSchemas");
    };
  }

  int size() {
    return size;
  }

  boolean full() {
    return size == ROWS;
  }

  /** Adds a row whose values were checked against the schema ({@link ValueWriters.StructWriter#checkRow}). */
  void add(Row row) {
    int at = size;
    for (int i = 0; i < columns.length; i++) {
      Object v = row.get(i);
      Column c = columns[i];
      c.nulls[at] = v == null;
      if (v != null) {
        c.set(at, v);
      }
    }
    size = at + 1;
  }

  /** Writes rows {@code [from, to)} of column {@code i} to its column writer, and to its own page statistics if any. */
  void writeColumn(int i, ColumnWriter out, int from, int to, StringPageStats stats) {
    columns[i].writeTo(out, from, to, stats);
  }

  /** Empties the chunk to be filled again. */
  void clear() {
    size = 0;
  }

  private abstract static class Column {
    final boolean[] nulls = new boolean[ROWS];
    final int definition;

    Column(int definition) {
      this.definition = definition;
    }

    abstract void set(int row, Object value);

    abstract void writeTo(ColumnWriter out, int from, int to, StringPageStats stats);
  }

  /** INT64 and INT32 leaves (the latter stored widened); which one is fixed per column, so the loop's branch is too. */
  private static final class Numbers extends Column {
    private final long[] values = new long[ROWS];
    private final ToLongFunction<Object> prepare;
    private final boolean int32;

    Numbers(int definition, boolean int32, ToLongFunction<Object> prepare) {
      super(definition);
      this.int32 = int32;
      this.prepare = prepare;
    }

    @Override
    void set(int row, Object value) {
      values[row] = prepare.applyAsLong(value);
    }

    @Override
    void writeTo(ColumnWriter out, int from, int to, StringPageStats stats) {
      for (int r = from; r < to; r++) {
        if (nulls[r]) {
          out.writeNull(0, 0);
        } else if (int32) {
          out.write((int) values[r], 0, definition);
        } else {
          out.write(values[r], 0, definition);
        }
      }
    }
  }

  /** Writes one boxed value with the definition level of a present value. */
  @FunctionalInterface
  private interface BoxedWrite {
    void write(ColumnWriter out, Object value, int definition);
  }

  /** Doubles, floats and booleans (rare in tables written in bulk: kept boxed rather than given an array type each). */
  private static final class Boxed extends Column {
    private final Object[] values = new Object[ROWS];
    private final BoxedWrite write;

    Boxed(int definition, BoxedWrite write) {
      super(definition);
      this.write = write;
    }

    @Override
    void set(int row, Object value) {
      values[row] = value;
    }

    @Override
    void writeTo(ColumnWriter out, int from, int to, StringPageStats stats) {
      for (int r = from; r < to; r++) {
        if (nulls[r]) {
          out.writeNull(0, 0);
        } else {
          write.write(out, values[r], definition);
        }
      }
    }
  }

  /** Strings, binaries and wide decimals; a string column's page statistics are kept here ({@link StringPageStats}). */
  private static final class Binaries extends Column {
    private final Binary[] values = new Binary[ROWS];
    private final java.util.function.Function<Object, Binary> prepare;

    Binaries(int definition, ValueWriters.ValueWriter writer) {
      this(definition, v -> (Binary) writer.prepare(v));
    }

    Binaries(int definition, java.util.function.Function<Object, Binary> prepare) {
      super(definition);
      this.prepare = prepare;
    }

    @Override
    void set(int row, Object value) {
      values[row] = prepare.apply(value);
    }

    @Override
    void writeTo(ColumnWriter out, int from, int to, StringPageStats stats) {
      for (int r = from; r < to; r++) {
        if (nulls[r]) {
          out.writeNull(0, 0);
        } else {
          out.write(values[r], 0, definition);
        }
      }
      if (stats != null) {
        for (int r = from; r < to; r++) {
          if (nulls[r]) {
            stats.addNull();
          } else {
            stats.add(values[r]);
          }
        }
      }
    }
  }
}
