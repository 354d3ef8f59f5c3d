package dev.sluice.ingestion.internal.sink.files;

import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.StructType;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

/** Line-oriented text files (json lines, csv), optionally gzip-compressed; the lines come from a {@link LineEncoder}. */
final class TextOutputFormat implements OutputFormat {
  /** Writes rows of one schema as lines. */
  interface LineEncoder {
    /** Text before the first row (a CSV header), or empty. */
    String header(StructType schema);

    /** Appends {@code row} as one line, without the line break. */
    void encode(Row row, StructType schema, Writer out) throws IOException;
  }

  private final String extension;
  private final boolean gzip;
  private final LineEncoder encoder;
  private final java.util.function.Consumer<StructType> check;

  TextOutputFormat(String extension, boolean gzip, LineEncoder encoder, java.util.function.Consumer<StructType> check) {
    this.extension = extension + (gzip ? ".gz" : "");
    this.gzip = gzip;
    this.encoder = encoder;
    this.check = check;
  }

  @Override
  public String extension() {
    return extension;
  }

  @Override
  public void check(StructType schema) {
    check.accept(schema);
  }

  @Override
  public DataFile open(ObjectStore store, String key, StructType schema) {
    OutputStream raw = store.newOutputStream(key);
    try {
      OutputStream stream = gzip ? new GZIPOutputStream(raw, 64 << 10) : raw;
      Writer out = new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), 64 << 10);
      out.write(encoder.header(schema));
      return new TextFile(store, key, schema, out);
    } catch (IOException e) {
      closeQuietly(raw);
      store.delete(key);
      throw new StorageException("Opening data file " + store.uriOf(key) + " failed: " + e, e);
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // already failing
    }
  }

  private final class TextFile implements DataFile {
    private final ObjectStore store;
    private final String key;
    private final StructType schema;
    private final Writer out;
    private long records;

    TextFile(ObjectStore store, String key, StructType schema, Writer out) {
      this.store = store;
      this.key = key;
      this.schema = schema;
      this.out = out;
    }

    @Override
    public void write(Row row) {
      try {
        encoder.encode(row, schema, out);
        out.write('\n');
        records++;
      } catch (IOException e) {
        throw new StorageException("Writing data file " + store.uriOf(key) + " failed: " + e, e);
      }
    }

    @Override
    public long numRecords() {
      return records;
    }

    @Override
    public void close() {
      try {
        out.close();
      } catch (IOException e) {
        throw new StorageException("Finishing data file " + store.uriOf(key) + " failed: " + e, e);
      }
    }

    @Override
    public void abort() {
      closeQuietly(out);
      store.delete(key);
    }
  }
}
