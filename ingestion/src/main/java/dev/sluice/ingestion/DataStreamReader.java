package dev.sluice.ingestion;

import dev.sluice.ingestion.internal.runner.SourceSpec;
import dev.sluice.table.types.StructType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Describes a streaming source: {@code readStream().format("json").schema(s).option(k, v).load(path)}. */
public final class DataStreamReader {
  private final SluiceSession session;
  private String format = "files";
  private StructType schema;
  private final Map<String, String> options = new LinkedHashMap<>();

  DataStreamReader(SluiceSession session) {
    this.session = session;
  }

  /** {@code json}, {@code csv}, {@code parquet}, {@code delta}, {@code rate}, {@code memory}, … */
  public DataStreamReader format(String value) {
    this.format = value;
    return this;
  }

  public DataStreamReader schema(StructType value) {
    this.schema = value;
    return this;
  }

  /**
   * The schema as a Spark DDL string, {@code "order_id STRING NOT NULL, amount DECIMAL(10,2)"}: Spark's type
   * names and aliases, {@code NOT NULL}, backticked names, {@code STRUCT<…>}, {@code ARRAY<…>}, {@code MAP<…>}.
   *
   * @throws AnalysisException when the text is not a DDL schema, naming what is wrong and where
   */
  public DataStreamReader schema(String ddl) {
    try {
      return schema(StructType.fromDdl(ddl));
    } catch (IllegalArgumentException e) {
      AnalysisException analysis = new AnalysisException(e.getMessage());
      analysis.initCause(e);
      throw analysis;
    }
  }

  public DataStreamReader option(String key, String value) {
    options.put(key, value);
    return this;
  }

  public DataStreamReader option(String key, long value) {
    return option(key, Long.toString(value));
  }

  public DataStreamReader option(String key, boolean value) {
    return option(key, Boolean.toString(value));
  }

  public DataStreamReader options(Map<String, String> values) {
    options.putAll(values);
    return this;
  }

  /** A source without a path (rate, memory). */
  public StreamFrame load() {
    return new StreamFrame(session, new SourceSpec(format, options, Optional.ofNullable(schema), Optional.empty()), List.of());
  }

  /** A source reading {@code path} (a folder, an S3 prefix, a table). */
  public StreamFrame load(String path) {
    return new StreamFrame(session, new SourceSpec(format, options, Optional.ofNullable(schema), Optional.of(path)), List.of());
  }

  /** Shorthand for {@code format("delta").load(path)}. */
  public StreamFrame table(String path) {
    return format("delta").load(path);
  }
}
