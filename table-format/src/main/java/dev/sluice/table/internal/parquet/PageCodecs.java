package dev.sluice.table.internal.parquet;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * Page (de)compression with snappy-java and zstd-jni directly. Parquet's own codec factory goes
 * through Hadoop's {@code CompressionCodec} classes, and builds a Hadoop {@code Configuration} (parsing
 * {@code core-default.xml}) for every file it opens; this one needs no Hadoop at all. Public for the log's
 * checkpoint reader and writer; not an API.
 */
public final class PageCodecs implements CompressionCodecFactory {
  public static final PageCodecs INSTANCE = new PageCodecs();

  private static final int ZSTD_LEVEL = 3;

  private PageCodecs() {}

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    return switch (codec) {
      case UNCOMPRESSED -> new Compressor(codec) {
        @Override
        byte[] compress(byte[] in) {
          return in;
        }
      };
      case SNAPPY -> new Compressor(codec) {
        @Override
        byte[] compress(byte[] in) throws IOException {
          return Snappy.compress(in);
        }
      };
      case ZSTD -> new Compressor(codec) {
        @Override
        byte[] compress(byte[] in) {
          return Zstd.compress(in, ZSTD_LEVEL);
        }
      };
      default -> throw new UnsupportedOperationException(
          "Sluice writes Parquet pages with SNAPPY or ZSTD only, not " + codec);
    };
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    return switch (codec) {
      case UNCOMPRESSED -> new Decompressor() {
        @Override
        void decompress(byte[] in, int off, int len, byte[] out) {
          System.arraycopy(in, off, out, 0, out.length);
        }
      };
      case SNAPPY -> new Decompressor() {
        @Override
        void decompress(byte[] in, int off, int len, byte[] out) throws IOException {
          Snappy.uncompress(in, off, len, out, 0);
        }
      };
      case ZSTD -> new Decompressor() {
        @Override
        void decompress(byte[] in, int off, int len, byte[] out) {
          long n = Zstd.decompressByteArray(out, 0, out.length, in, off, len);
          if (Zstd.isError(n)) {
            throw new IllegalStateException("A ZSTD page is corrupt: " + Zstd.getErrorName(n));
          }
        }
      };
      case GZIP -> new Decompressor() {
        @Override
        void decompress(byte[] in, int off, int len, byte[] out) throws IOException {
          try (GZIPInputStream gz = new GZIPInputStream(new ByteArrayInputStream(in, off, len))) {
            gz.readNBytes(out, 0, out.length);
          }
        }
      };
      default -> throw new UnsupportedOperationException(
          "The Parquet file uses the " + codec + " codec, which Sluice cannot read "
              + "(supported: UNCOMPRESSED, SNAPPY, ZSTD, GZIP); rewrite the file with one of those");
    };
  }

  @Override
  public void release() {}

  private abstract static class Compressor implements BytesInputCompressor {
    private final CompressionCodecName codec;

    Compressor(CompressionCodecName codec) {
      this.codec = codec;
    }

    abstract byte[] compress(byte[] in) throws IOException;

    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
      return BytesInput.from(compress(bytes.toByteArray()));
    }

    @Override
    public CompressionCodecName getCodecName() {
      return codec;
    }

    @Override
    public void release() {}
  }

  /**
   * The bytes of {@code in} as one array: its own where it wraps a whole array (a page this class decompressed), else
   * a copy. {@code toByteArray()} always copies, and reading silver and gold copied every page once more that way
   * (the largest allocation of the 2 M-event medallion, ~0.5 GB).
   */
  static byte[] wholeArray(BytesInput in) throws IOException {
    ByteBuffer b = in.toByteBuffer();
    if (b.hasArray() && b.arrayOffset() == 0 && b.position() == 0 && b.remaining() == b.array().length) {
      return b.array();
    }
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  private abstract static class Decompressor implements BytesInputDecompressor {
    abstract void decompress(byte[] in, int off, int len, byte[] out) throws IOException;

    /** Reads the compressed bytes in place where they are on the heap (a slice of the column chunk's buffer). */
    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
      byte[] out = new byte[uncompressedSize];
      ByteBuffer in = bytes.toByteBuffer();
      if (in.hasArray()) {
        decompress(in.array(), in.arrayOffset() + in.position(), in.remaining(), out);
      } else {
        byte[] copy = new byte[in.remaining()];
        in.duplicate().get(copy);
        decompress(copy, 0, copy.length, out);
      }
      return BytesInput.from(out);
    }

    @Override
    public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
        throws IOException {
      byte[] in = new byte[compressedSize];
      input.get(in);
      byte[] out = new byte[uncompressedSize];
      decompress(in, 0, in.length, out);
      output.put(out);
    }

    @Override
    public void release() {}
  }
}
