package dev.sluice.table.internal.actions;

import java.util.Map;

/**
 * {@code commitInfo}: provenance of one commit. {@code operationParameters} values are JSON-encoded
 * strings as Spark writes them; {@code operationMetrics} values are decimal strings. Fields Sluice
 * does not model are kept in {@code extra} so that history shows them.
 */
public record CommitInfo(
    Long timestamp,
    String operation,
    Map<String, String> operationParameters,
    Long readVersion,
    String isolationLevel,
    Boolean isBlindAppend,
    Map<String, String> operationMetrics,
    String engineInfo,
    String txnId,
    String userMetadata,
    Map<String, Object> extra)
    implements Action {
  public CommitInfo {
    operationParameters = operationParameters == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(operationParameters));
    operationMetrics = operationMetrics == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(operationMetrics));
    extra = extra == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(extra));
  }
}
