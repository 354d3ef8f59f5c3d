package dev.sluice.ingestion.state.internal;

import java.io.IOException;

/** Writes and reads one non-null value of one Delta type (the Java mapping of {@code DataType}). */
interface ValueCodec {
  /**
   * @throws ClassCastException when the value is not the Java class of the type (callers name the column)
   */
  void write(ByteWriter out, Object value);

  Object read(ByteReader in) throws IOException;

  /** Moves past one value without making it (a pass that doesn't read the column). */
  default void skip(ByteReader in) throws IOException {
    read(in);
  }
}
