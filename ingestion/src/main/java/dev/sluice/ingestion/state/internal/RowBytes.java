package dev.sluice.ingestion.state.internal;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.io.IOException;

/**
 * Rows of one schema as bytes, with the state file encoding ({@link StructCodec}): for operators that keep
 * values of several user schemas in one store (e.g. {@code transformWithState}'s state variables, whose
 * schemas may evolve between runs) as a binary column. Equal rows without maps encode to equal bytes.
 * Not thread-safe: it reuses its buffer.
 */
public final class RowBytes {
  private final StructCodec codec;
  private final ByteWriter buffer = new ByteWriter(128);
  private final ByteReader reader = new ByteReader();

  /**
   * @param path how error messages name the rows, e.g. {@code state variable 'events'}
   * @throws IllegalArgumentException for a type the store can't keep (timestamp_ntz)
   */
  public RowBytes(StructType schema, String path) {
    this.codec = new StructCodec(schema, path);
  }

  /**
   * @throws IllegalArgumentException naming the column when the row doesn't match the schema
   */
  public byte[] encode(Row row) {
    buffer.reset();
    codec.writeRow(buffer, row);
    return buffer.toByteArray();
  }

  /**
   * @throws IllegalStateException when the bytes are not a row of this schema (a damaged or foreign value)
   */
  public Row decode(byte[] bytes) {
    reader.reset(bytes);
    try {
      return codec.readRow(reader);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("A state value can't be decoded with its recorded schema: " + e, e);
    }
  }
}
