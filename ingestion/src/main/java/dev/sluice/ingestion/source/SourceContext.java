package dev.sluice.ingestion.source;

import dev.sluice.ingestion.Location;
import dev.sluice.table.types.StructType;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a source is created with: its options (case-insensitive keys, as given by the user), the
 * schema the user declared (if any), the path it reads (if any), a private folder in the query's
 * checkpoint ({@code sources/<i>/}) for logs of its own, a resolver from path strings to locations,
 * and the clock.
 */
public record SourceContext(
    Map<String, String> options,
    Optional<StructType> userSchema,
    Optional<String> path,
    Location metadataLocation,
    Function<String, Location> resolver,
    Clock clock) {
  /** An option's value ignoring key case, or empty. */
  public Optional<String> option(String key) {
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (e.getKey().equalsIgnoreCase(key)) {
        return Optional.ofNullable(e.getValue());
      }
    }
    return Optional.empty();
  }
}
