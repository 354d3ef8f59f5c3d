package dev.sluice.ingestion.source;

import java.util.Set;

/**
 * Creates sources of one format ({@code files}, {@code json}, {@code csv}, {@code parquet}, {@code delta},
 * {@code rate}, {@code memory}, …). Providers are found with {@link java.util.ServiceLoader}.
 */
public interface SourceProvider {
  /** The format names this provider answers to, e.g. {@code json}, {@code csv}, {@code parquet}. */
  Set<String> formats();

  /**
   * The option keys it accepts (lower case), besides those starting with one of {@link #optionPrefixes()}; others
   * are refused with the list of these.
   */
  Set<String> options();

  /** Prefixes of pass-through option keys (lower case), e.g. {@code kafka.} for the consumer's settings. */
  default Set<String> optionPrefixes() {
    return Set.of();
  }

  /**
   * @throws IllegalArgumentException naming a bad option and its fix, or a missing path
   */
  Source create(String format, SourceContext context);
}
