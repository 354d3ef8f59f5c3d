package dev.sluice.table;

import java.time.Instant;
import java.util.Map;

/** One version of a table's history, from its {@code commitInfo} (fields are empty when a writer left them out). */
public record HistoryEntry(
    long version,
    Instant timestamp,
    String operation,
    Map<String, String> operationParameters,
    Map<String, String> operationMetrics,
    Long readVersion,
    Boolean isBlindAppend,
    String engineInfo,
    String txnId) {
  public HistoryEntry {
    operationParameters = operationParameters == null ? Map.of() : Map.copyOf(operationParameters);
    operationMetrics = operationMetrics == null ? Map.of() : Map.copyOf(operationMetrics);
  }
}
