package dev.sluice.ingestion;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.List;
import java.util.Map;

/**
 * What one micro-batch did, with the field names of Spark's {@code StreamingQueryProgress} so that
 * existing dashboards and habits carry over. {@link #json()} renders it.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record QueryProgress(
    String id,
    String runId,
    String name,
    String timestamp,
    long batchId,
    long batchDuration,
    long numInputRows,
    double inputRowsPerSecond,
    double processedRowsPerSecond,
    Map<String, Long> durationMs,
    Map<String, String> eventTime,
    List<StateOperatorProgress> stateOperators,
    List<SourceProgress> sources,
    SinkProgress sink,
    Map<String, Long> observedMetrics) {

  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final ObjectMapper COMPACT = new ObjectMapper();

  public QueryProgress {
    durationMs = Map.copyOf(durationMs);
    eventTime = eventTime == null ? Map.of() : Map.copyOf(eventTime);
    stateOperators = stateOperators == null ? List.of() : List.copyOf(stateOperators);
    sources = List.copyOf(sources);
    observedMetrics = observedMetrics == null ? Map.of() : Map.copyOf(observedMetrics);
  }

  /**
   * One source's part of the batch; offsets are the source's own JSON; {@code metrics} are the source's own
   * counters (Spark's {@code SourceProgress.metrics}), e.g. the files source's {@code numMissingFilesSkipped}.
   */
  public record SourceProgress(
      String description,
      @JsonRawValue String startOffset,
      @JsonRawValue String endOffset,
      @JsonRawValue String latestOffset,
      long numInputRows,
      double inputRowsPerSecond,
      double processedRowsPerSecond,
      Map<String, String> metrics) {
    public SourceProgress {
      metrics = metrics == null ? Map.of() : Map.copyOf(metrics);
    }

    public SourceProgress(String description, String startOffset, String endOffset, String latestOffset,
        long numInputRows, double inputRowsPerSecond, double processedRowsPerSecond) {
      this(description, startOffset, endOffset, latestOffset, numInputRows, inputRowsPerSecond,
          processedRowsPerSecond, Map.of());
    }
  }

  /**
   * The sink's part of the batch. {@code alreadyCommitted}: the sink found the batch's commit already in its
   * table (a batch re-run after a crash), so it wrote nothing and {@code numOutputRows} is 0; whoever sums
   * the batches of a run must not count this one's rows (e.g. its {@code observedMetrics}) again.
   */
  public record SinkProgress(String description, long numOutputRows, boolean alreadyCommitted) {
    public SinkProgress(String description, long numOutputRows) {
      this(description, numOutputRows, false);
    }
  }

  /**
   * A stateful operator's state after the batch (filled by stateful queries); {@code customMetrics} are the state
   * store provider's own counters with Spark's names ({@code rocksdbGetCount}, {@code loadedMapCacheHitCount}, …).
   */
  public record StateOperatorProgress(
      String operatorName,
      long numRowsTotal,
      long numRowsUpdated,
      long numRowsRemoved,
      long numRowsDroppedByWatermark,
      long memoryUsedBytes,
      long commitTimeMs,
      Map<String, Long> customMetrics) {
    public StateOperatorProgress {
      customMetrics = customMetrics == null ? Map.of()
          : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(customMetrics));
    }

    /** Without custom metrics. */
    public StateOperatorProgress(String operatorName, long numRowsTotal, long numRowsUpdated, long numRowsRemoved,
        long numRowsDroppedByWatermark, long memoryUsedBytes, long commitTimeMs) {
      this(operatorName, numRowsTotal, numRowsUpdated, numRowsRemoved, numRowsDroppedByWatermark, memoryUsedBytes,
          commitTimeMs, Map.of());
    }
  }

  /** Pretty-printed JSON. */
  public String json() {
    return write(MAPPER);
  }

  /** One-line JSON (for logs). */
  public String compactJson() {
    return write(COMPACT);
  }

  private String write(ObjectMapper mapper) {
    try {
      return mapper.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Progress could not be rendered as JSON", e);
    }
  }

  @Override
  public String toString() {
    return compactJson();
  }
}
