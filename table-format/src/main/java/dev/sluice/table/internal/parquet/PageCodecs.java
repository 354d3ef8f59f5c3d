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
        int maxCompressedLength(int n) {
          return n;
        }

        @Override
        int compress(byte[] in, int n, byte[] out) {
          System.arraycopy(in, 0, out, 0, n);
          return n;
        }
      };
      case SNAPPY -> new Compressor(codec) {
        @Override
        int maxCompressedLength(int n) {
          return Snappy.maxCompressedLength(n);
        }

        @Override
        int compress(byte[] in, int n, byte[] out) throws IOException {
          return Snappy.compress(in, 0, n, out, 0);
        }
      };
      case ZSTD -> new Compressor(codec) {
        @Override
        int maxCompressedLength(int n) {
          return Math.toIntExact(Zstd.compressBound(n));
        }

        @Override
        int compress(byte[] in, int n, byte[] out) {
          long written = Zstd.compressByteArray(out, 0, out.length, in, 0, n, ZSTD_LEVEL);
          if (Zstd.isError(written)) {
            throw new IllegalStateException("Compressing a page with ZSTD failed: " + Zstd.getErrorName(written));
          }
          return (int) written;
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

  /**
   * One writer's compressor (each {@link #getCompressor} call makes one). The page and its compressed bytes go
   * through two arrays kept from page to page: the page writer copies what {@link #compress(BytesInput)} returns
   * before it asks again (into its column chunk, or a copy of the dictionary page), and a page and two snappy
   * arrays per page were ~0.3 GB of the 2 M-event medallion's allocations.
   */
  private abstract static class Compressor implements BytesInputCompressor {
    private final CompressionCodecName codec;
    private byte[] page = new byte[0];
    private byte[] compressed = new byte[0];

    Compressor(CompressionCodecName codec) {
      this.codec = codec;
    }

    abstract int maxCompressedLength(int n);

    /** Compresses {@code in[0, n)} into {@code out} (of at least {@link #maxCompressedLength}); returns the length. */
    abstract int compress(byte[] in, int n, byte[] out) throws IOException;

    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
      int n = Math.toIntExact(bytes.size());
      if (page.length < n) {
        page = new byte[n];
      }
      bytes.writeAllTo(new ArrayFiller(page));
      int max = maxCompressedLength(n);
      if (compressed.length < max) {
        compressed = new byte[max];
      }
      return BytesInput.from(compressed, 0, compress(page, n, compressed));
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

  /** Writes into an array from its start (room checked by the caller). */
  private static final class ArrayFiller extends java.io.OutputStream {
    private final byte[] into;
    private int at;

    ArrayFiller(byte[] into) {
      this.into = into;
    }

    @Override
    public void write(int b) {
      into[at++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      System.arraycopy(b, off, into, at, len);
      at += len;
    }
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
