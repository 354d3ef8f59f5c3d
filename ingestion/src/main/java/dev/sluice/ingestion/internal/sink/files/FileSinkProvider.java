package dev.sluice.ingestion.internal.sink.files;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.internal.sink.SinkErrors;
import dev.sluice.ingestion.internal.sink.SinkInterceptor;
import dev.sluice.ingestion.sink.Sink;
import dev.sluice.ingestion.sink.SinkContext;
import dev.sluice.ingestion.sink.SinkProvider;
import dev.sluice.table.internal.parquet.ParquetWriteOptions;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

/**
 * {@code writeStream().format("json" | "csv" | "parquet").start(path)}: append-only file sinks with a
 * {@code _spark_metadata} log. Options: {@code path}, {@code compression} (json/csv: none, gzip; parquet: snappy,
 * zstd), {@code maxRecordsPerFile}, and for csv {@code header}, {@code sep}/{@code delimiter}, {@code quote},
 * {@code escape}, {@code nullValue}.
 */
public final class FileSinkProvider implements SinkProvider {
  private static final Set<String> OPTIONS = Set.of("path", "compression", "maxrecordsperfile", "header", "sep",
      "delimiter", "quote", "escape", "nullvalue");

  @Override
  public Set<String> formats() {
    return Set.of("json", "csv", "parquet");
  }

  @Override
  public Set<String> options() {
    return OPTIONS;
  }

  @Override
  public PreparedSink prepare(String format, SinkContext context) {
    if (context.outputMode() != OutputMode.APPEND) {
      throw SinkErrors.unsupportedOutputMode(format, context.outputMode());
    }
    Location folder = context.path().orElseThrow(() -> SinkErrors.missingOption(format, "path", "the folder to"
        + " write files to: call start(path) or option(\"path\", ...)"));
    OutputFormat output = outputFormat(format, context);
    long maxRecords = context.option("maxrecordsperfile").map(v -> parseLong("maxRecordsPerFile", v)).orElse(0L);
    SinkInterceptor interceptor = SinkInterceptor.forQuery(context.queryName());
    String description = "FileSink[" + format + ", " + folder + "]";
    List<String> partitionBy = context.partitionBy();
    return new PreparedSink() {
      @Override
      public Sink open(UUID queryId) {
        return new FileSink(folder, output, partitionBy, maxRecords, interceptor, description);
      }

      @Override
      public String description() {
        return description;
      }
    };
  }

  private static OutputFormat outputFormat(String format, SinkContext context) {
    String compression = context.option("compression").orElse(format.equals("parquet") ? "snappy" : "none")
        .toLowerCase(Locale.ROOT);
    if (format.equals("parquet")) {
      if (!compression.equals("snappy") && !compression.equals("zstd")) {
        throw SinkErrors.badOption("compression", compression, List.of("snappy", "zstd"));
      }
      return new ParquetOutputFormat(ParquetWriteOptions.Codec.valueOf(compression.toUpperCase(Locale.ROOT)));
    }
    if (!List.of("none", "uncompressed", "gzip").contains(compression)) {
      throw SinkErrors.badOption("compression", compression, List.of("none", "uncompressed", "gzip"));
    }
    boolean gzip = compression.equals("gzip");
    if (format.equals("json")) {
      return new TextOutputFormat(".json", gzip, new JsonLineEncoder(), schema -> {});
    }
    CsvLineEncoder csv = new CsvLineEncoder(Boolean.parseBoolean(context.option("header").orElse("false")),
        character(context, "sep", context.option("delimiter").orElse(",")), character(context, "quote", "\""),
        character(context, "escape", "\\"), context.option("nullvalue").orElse(""));
    return new TextOutputFormat(".csv", gzip, csv, CsvLineEncoder::check);
  }

  private static char character(SinkContext context, String option, String fallback) {
    String v = context.option(option).orElse(fallback);
    if (v.equals("\\t")) {
      return '\t';
    }
    if (v.length() != 1) {
      throw new IllegalArgumentException("Option " + option + " must be a single character, got '" + v + "'");
    }
    return v.charAt(0);
  }

  private static long parseLong(String option, String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Option " + option + " must be a whole number, got '" + value + "'", e);
    }
  }
}
