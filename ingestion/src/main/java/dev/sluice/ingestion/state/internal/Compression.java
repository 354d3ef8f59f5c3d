package dev.sluice.ingestion.state.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;
import org.xerial.snappy.SnappyInputStream;
import org.xerial.snappy.SnappyOutputStream;

/** How the body of a state file is compressed; the id is stored in the file header. */
enum Compression {
  NONE(0),
  SNAPPY(1),
  /** Deflate at level 1: the fastest level, which already gets most of the ratio on state rows. */
  DEFLATE(2);

  private static final int BUFFER = 64 * 1024;

  final int id;

  Compression(int id) {
    this.id = id;
  }

  static Compression ofId(int id) throws IOException {
    for (Compression c : values()) {
      if (c.id == id) {
        return c;
      }
    }
    throw new IOException("unknown compression id " + id);
  }

  /** A stream that compresses into {@code out}; closing it finishes the body and closes {@code out}. */
  OutputStream compress(OutputStream out) throws IOException {
    return switch (this) {
      case NONE -> out;
      case SNAPPY -> new SnappyOutputStream(out, BUFFER);
      case DEFLATE -> new DeflaterOutputStream(out, new Deflater(Deflater.BEST_SPEED), BUFFER) {
        @Override
        public void close() throws IOException {
          try {
            super.close();
          } finally {
            def.end(); // a Deflater passed in is not ended by the stream, and holds native memory
          }
        }
      };
    };
  }

  InputStream decompress(InputStream in) throws IOException {
    return switch (this) {
      case NONE -> in;
      case SNAPPY -> new SnappyInputStream(in);
      case DEFLATE -> new InflaterInputStream(in, new java.util.zip.Inflater(), BUFFER) {
        @Override
        public void close() throws IOException {
          try {
            super.close();
          } finally {
            inf.end();
          }
        }
      };
    };
  }
}
