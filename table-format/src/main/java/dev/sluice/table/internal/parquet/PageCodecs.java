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
        void decompress(byte[] in, byte[] out) {
          System.arraycopy(in, 0, out, 0, out.length);
        }
      };
      case SNAPPY -> new Decompressor() {
        @Override
        void decompress(byte[] in, byte[] out) throws IOException {
          Snappy.uncompress(in, 0, in.length, out, 0);
        }
      };
      case ZSTD -> new Decompressor() {
        @Override
        void decompress(byte[] in, byte[] out) {
          long n = Zstd.decompress(out, in);
          if (Zstd.isError(n)) {
            throw new IllegalStateException("A ZSTD page is corrupt: " + Zstd.getErrorName(n));
          }
        }
      };
      case GZIP -> new Decompressor() {
        @Override
        void decompress(byte[] in, byte[] out) throws IOException {
          try (GZIPInputStream gz = new GZIPInputStream(new ByteArrayInputStream(in))) {
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

  private abstract static class Decompressor implements BytesInputDecompressor {
    abstract void decompress(byte[] in, byte[] out) throws IOException;

    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
      byte[] out = new byte[uncompressedSize];
      decompress(bytes.toByteArray(), out);
      return BytesInput.from(out);
    }

    @Override
    public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
        throws IOException {
      byte[] in = new byte[compressedSize];
      input.get(in);
      byte[] out = new byte[uncompressedSize];
      decompress(in, out);
      output.put(out);
    }

    @Override
    public void release() {}
  }
}
