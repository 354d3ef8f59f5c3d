package dev.sluice.ingestion.internal.sink.files;

import dev.sluice.table.data.Row;
import dev.sluice.table.internal.parquet.ParquetDataWriter;
import dev.sluice.table.internal.parquet.ParquetWriteOptions;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.StructType;
import java.util.Locale;

/** Parquet data files through the table format's writer (the one Delta tables use), snappy or zstd. */
final class ParquetOutputFormat implements OutputFormat {
  private final ParquetWriteOptions options;

  ParquetOutputFormat(ParquetWriteOptions.Codec codec) {
    this.options = ParquetWriteOptions.defaults().withCodec(codec);
  }

  @Override
  public String extension() {
    return "." + options.codec().name().toLowerCase(Locale.ROOT) + ".parquet";
  }

  @Override
  public void check(StructType schema) {
    // the writer refuses the few types it can't write (timestamp_ntz, non-string map keys) when it opens
  }

  @Override
  public DataFile open(ObjectStore store, String key, StructType schema) {
    ParquetDataWriter writer = ParquetDataWriter.open(store, key, schema, options);
    return new DataFile() {
      @Override
      public void write(Row row) {
        writer.write(row);
      }

      @Override
      public long numRecords() {
        return writer.numRecords();
      }

      @Override
      public void close() {
        writer.close();
      }

      @Override
      public void abort() {
        writer.abort();
      }
    };
  }
}
