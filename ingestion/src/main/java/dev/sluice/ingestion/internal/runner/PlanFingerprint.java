package dev.sluice.ingestion.internal.runner;

import dev.sluice.ingestion.CheckpointIncompatibleException;
import dev.sluice.ingestion.internal.checkpoint.QueryMetadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The stateful part of a query's plan (sources, stateful steps with their keys and aggregates,
 * event-time column, output mode), kept in the checkpoint's {@code metadata} as {@code plan.*}
 * properties. Filters, projections and rate limits are not part of it, so they may change freely.
 */
final class PlanFingerprint {
  private static final String PREFIX = "plan.";

  private PlanFingerprint() {}

  static Map<String, String> encode(Map<String, String> lines) {
    Map<String, String> out = new LinkedHashMap<>();
    lines.forEach((k, v) -> out.put(PREFIX + k, v));
    return out;
  }

  /**
   * @throws CheckpointIncompatibleException listing each difference and what to do
   */
  static void check(QueryMetadata metadata, Map<String, String> current, String checkpoint) {
    Map<String, String> stored = new LinkedHashMap<>();
    metadata.properties().forEach((k, v) -> {
      if (k.startsWith(PREFIX)) {
        stored.put(k.substring(PREFIX.length()), v);
      }
    });
    if (stored.isEmpty()) {
      return;
    }
    List<String> differences = new ArrayList<>();
    Set<String> keys = new LinkedHashSet<>(stored.keySet());
    keys.addAll(current.keySet());
    for (String k : keys) {
      String before = stored.get(k);
      String now = current.get(k);
      if (before == null) {
        differences.add("added " + k + " = " + now);
      } else if (now == null) {
        differences.add("removed " + k + " (was " + before + ")");
      } else if (!before.equals(now)) {
        differences.add("changed " + k + ": " + before + " → " + now);
      }
    }
    if (differences.isEmpty()) {
      return;
    }
    throw new CheckpointIncompatibleException("The query's stateful plan differs from the one that wrote the checkpoint "
        + checkpoint + ", so its state can't be reused:\n  - " + String.join("\n  - ", differences)
        + "\nNothing was read or written. Undo the change, or start the query with a new checkpointLocation (it then"
        + " reprocesses its sources from the start; for a Delta sink, give it a new table or truncate it first)."
        + " Filters, projections and rate limits may change without a new checkpoint.", differences);
  }
}
