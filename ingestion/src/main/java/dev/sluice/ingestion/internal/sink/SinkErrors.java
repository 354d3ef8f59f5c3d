package dev.sluice.ingestion.internal.sink;

import dev.sluice.ingestion.AnalysisException;
import dev.sluice.ingestion.OutputMode;
import java.util.Collection;
import java.util.TreeSet;

/** The messages of the plugin sinks (Kafka, files): the problem, why, and the fix. Spark's wording where it has one. */
public final class SinkErrors {
  private SinkErrors() {}

  /** A file sink asked for update or complete mode (Spark: "Data source json does not support Update output mode"). */
  public static AnalysisException unsupportedOutputMode(String format, OutputMode mode) {
    String name = mode.name().charAt(0) + mode.name().substring(1).toLowerCase(java.util.Locale.ROOT);
    return new AnalysisException("Data source " + format + " does not support " + name + " output mode. A " + format
        + " file sink only appends new files; to keep an updated or complete result, write a Delta table"
        + " (format(\"delta\"): complete mode overwrites it transactionally; update mode through foreachBatch with"
        + " MergeIntoTable), or use foreachBatch to write each batch yourself.");
  }

  public static IllegalArgumentException missingOption(String format, String option, String why) {
    return new IllegalArgumentException("The " + format + " sink needs option " + option + ": " + why);
  }

  public static IllegalArgumentException badOption(String option, String value, Collection<String> accepted) {
    return new IllegalArgumentException("Option " + option + " must be one of " + new TreeSet<>(accepted) + ", got '"
        + value + "'");
  }

  /** A column the Kafka sink reads has the wrong type (Spark's messages, e.g. "value attribute type must be a string or binary"). */
  public static AnalysisException kafkaColumnType(String column, String expected, String actual) {
    return new AnalysisException(column + " attribute type must be " + expected + " (it is " + actual + "): cast it,"
        + " e.g. withColumn(\"" + column + "\", \"CAST(" + column + " AS STRING)\"), or drop the column");
  }

  public static AnalysisException kafkaNoValue(Collection<String> columns) {
    return new AnalysisException("Required attribute 'value' not found: the Kafka sink writes the column 'value'"
        + " (string or binary) as the record value, but the stream has " + columns + ". Add it, e.g. with"
        + " selectExpr(\"CAST(id AS STRING) AS value\") or withColumn(\"value\", \"concat(...)\")");
  }

  public static AnalysisException kafkaNoTopic(Collection<String> columns) {
    return new AnalysisException("topic option required when no 'topic' attribute is present. Use the topic option"
        + " for setting a topic (the stream has " + columns + ")");
  }

  public static IllegalStateException kafkaNullTopic(long batchId) {
    return new IllegalStateException("Null topic present in the data of batch " + batchId + ". Use the topic option"
        + " for setting a topic, or give every row a topic");
  }
}
