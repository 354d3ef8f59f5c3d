package dev.sluice.ingestion.internal.runner;

import dev.sluice.ingestion.source.ReadLimit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Takes the per-trigger rate limits out of a source's options and turns them into a {@link ReadLimit}:
 * the runner owns them, because {@code Trigger.once()} ignores them while other triggers apply them.
 */
final class RateLimits {
  static final String MAX_FILES = "maxfilespertrigger";
  static final String MAX_BYTES = "maxbytespertrigger";
  static final String MAX_RECORDS = "maxrecordspertrigger";
  /** The Kafka source's name for the record limit, as in Spark. */
  static final String MAX_OFFSETS = "maxoffsetspertrigger";

  private RateLimits() {}

  record Split(ReadLimit limit, Map<String, String> sourceOptions) {}

  static Split split(String format, Map<String, String> options) {
    boolean kafka = format.equalsIgnoreCase("kafka");
    long files = Long.MAX_VALUE;
    long bytes = Long.MAX_VALUE;
    long records = Long.MAX_VALUE;
    Map<String, String> rest = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : options.entrySet()) {
      switch (e.getKey().toLowerCase(Locale.ROOT)) {
        case MAX_FILES -> files = positive(e.getKey(), e.getValue());
        case MAX_BYTES -> bytes = ByteSizes.parse(e.getKey(), e.getValue());
        case MAX_RECORDS -> records = positive(e.getKey(), e.getValue());
        case MAX_OFFSETS -> {
          if (kafka) {
            records = positive(e.getKey(), e.getValue());
          } else {
            rest.put(e.getKey(), e.getValue());
          }
        }
        default -> rest.put(e.getKey(), e.getValue());
      }
    }
    return new Split(new ReadLimit(files, bytes, records), rest);
  }

  private static long positive(String key, String value) {
    try {
      long v = Long.parseLong(value.trim());
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new IllegalArgumentException("Option " + key + " must be a positive whole number, got '" + value + "'");
  }
}
