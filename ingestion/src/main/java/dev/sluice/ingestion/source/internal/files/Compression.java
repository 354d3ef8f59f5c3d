package dev.sluice.ingestion.source.internal.files;

import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;

/**
 * Decompresses text input files by the extension of their name, as Spark's Hadoop codecs do: {@code .gz},
 * {@code .bz2}, {@code .zst} and {@code .zip} (every entry, in order, each ending a line). {@code .snappy} and
 * {@code .lz4} are refused by name: their Hadoop framing differs from the tools' framing, so guessing would read
 * garbage. Parquet files are compressed inside and never pass here.
 */
final class Compression {
  static final List<String> SUPPORTED = List.of(".gz", ".bz2", ".zst", ".zip");
  private static final Set<String> REFUSED = Set.of("snappy", "lz4", "lzo", "xz", "br", "deflate");

  private Compression() {}

  /**
   * The decompressed content of {@code key}, or {@code content} itself when the name has no compression extension.
   *
   * @throws IllegalArgumentException for a compression it refuses
   * @throws IllegalStateException when the content is not valid data of its extension
   */
  static byte[] decode(String key, String uri, byte[] content) {
    String ext = extension(key);
    if (REFUSED.contains(ext)) {
      throw FileSourceErrors.unsupportedCompression(uri, ext);
    }
    try {
      return switch (ext) {
        case "gz" -> readAll(new GZIPInputStream(new ByteArrayInputStream(content)));
        case "bz2" -> readAll(new BZip2CompressorInputStream(new ByteArrayInputStream(content), true));
        case "zst" -> readAll(new ZstdInputStream(new ByteArrayInputStream(content)));
        case "zip" -> unzip(content);
        default -> content;
      };
    } catch (IOException | RuntimeException e) {
      throw FileSourceErrors.unreadableCompressed(uri, ext, e);
    }
  }

  private static String extension(String key) {
    int slash = key.lastIndexOf('/');
    int dot = key.lastIndexOf('.');
    return dot > slash ? key.substring(dot + 1).toLowerCase(Locale.ROOT) : "";
  }

  private static byte[] readAll(InputStream in) throws IOException {
    try (in) {
      return in.readAllBytes();
    }
  }

  private static byte[] unzip(byte[] content) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(content))) {
      for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
        if (e.isDirectory()) {
          continue;
        }
        byte[] entry = zip.readAllBytes();
        out.write(entry);
        if (entry.length > 0 && entry[entry.length - 1] != '\n') {
          out.write('\n'); // an entry's last line must not run into the next entry's first one
        }
      }
    }
    return out.toByteArray();
  }
}
