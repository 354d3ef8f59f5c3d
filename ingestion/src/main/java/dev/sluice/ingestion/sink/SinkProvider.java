package dev.sluice.ingestion.sink;

import java.util.Set;

/**
 * Creates sinks of one or more formats ({@code kafka}, {@code json}, {@code csv}, {@code parquet}) for
 * {@code writeStream().format(..)}. Providers are found with {@link java.util.ServiceLoader}; the built-in
 * sinks (delta, foreachBatch, console, memory) are not plugins.
 */
public interface SinkProvider {
  /** The format names this provider answers to. */
  Set<String> formats();

  /** The option keys it accepts (lower case), besides those starting with one of {@link #optionPrefixes()}. */
  Set<String> options();

  /** Prefixes of pass-through option keys (lower case), e.g. {@code kafka.} for the producer's settings. */
  default Set<String> optionPrefixes() {
    return Set.of();
  }

  /**
   * Checks the options and the output mode and returns what opens the sink once the query id is known. Runs on
   * the caller of {@code start()}, so that a sink that can't work fails there, not on the query's thread.
   *
   * @throws dev.sluice.ingestion.AnalysisException for an output mode the format can't write, naming the fix
   * @throws IllegalArgumentException naming a bad or missing option and its fix
   */
  PreparedSink prepare(String format, SinkContext context);

  /** A sink whose options are checked, waiting for the query id. */
  interface PreparedSink {
    /** Opens the sink for the query; the runner closes it when the query ends. */
    Sink open(java.util.UUID queryId);

    /** A one-line description for progress reports, e.g. {@code KafkaSink[orders, exactly_once]}. */
    String description();
  }
}
