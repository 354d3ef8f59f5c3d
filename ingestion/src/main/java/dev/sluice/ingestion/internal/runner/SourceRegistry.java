package dev.sluice.ingestion.internal.runner;

import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceContext;
import dev.sluice.ingestion.source.SourceProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.TreeSet;

/** Finds source providers by format name ({@link ServiceLoader}) and checks option keys against what they accept. */
public final class SourceRegistry {
  private final List<SourceProvider> providers = new ArrayList<>();

  public SourceRegistry() {
    ServiceLoader.load(SourceProvider.class, SourceRegistry.class.getClassLoader()).forEach(providers::add);
  }

  /** The known format names, sorted. */
  public TreeSet<String> formats() {
    TreeSet<String> out = new TreeSet<>();
    providers.forEach(p -> out.addAll(p.formats()));
    return out;
  }

  /** The option keys (lower-case) a format accepts, rate limits included; empty for an unknown format. */
  public java.util.Set<String> options(String format) {
    String name = format.toLowerCase(Locale.ROOT);
    for (SourceProvider p : providers) {
      if (p.formats().contains(name)) {
        TreeSet<String> out = new TreeSet<>(p.options());
        out.addAll(List.of(RateLimits.MAX_FILES, RateLimits.MAX_BYTES, RateLimits.MAX_RECORDS));
        return out;
      }
    }
    return java.util.Set.of();
  }

  /** The prefixes of pass-through option keys a format accepts (lower case, e.g. {@code kafka.}); empty if none. */
  public java.util.Set<String> optionPrefixes(String format) {
    String name = format.toLowerCase(Locale.ROOT);
    for (SourceProvider p : providers) {
      if (p.formats().contains(name)) {
        return p.optionPrefixes();
      }
    }
    return java.util.Set.of();
  }

  /**
   * @throws IllegalArgumentException for an unknown format (listing the known ones) or an unknown option key
   *     (listing the accepted ones)
   */
  public Source create(String format, SourceContext context) {
    String name = format.toLowerCase(Locale.ROOT);
    for (SourceProvider p : providers) {
      if (p.formats().contains(name)) {
        // The provider checks its options first: its messages carry hints (e.g. which option replaces a Spark one).
        Source source = p.create(name, context);
        List<String> unknown = new ArrayList<>();
        for (String key : context.options().keySet()) {
          String lower = key.toLowerCase(Locale.ROOT);
          if (!p.options().contains(lower) && p.optionPrefixes().stream().noneMatch(lower::startsWith)) {
            unknown.add(key);
          }
        }
        if (!unknown.isEmpty()) {
          source.close();
          throw new IllegalArgumentException("Unknown option" + (unknown.size() > 1 ? "s " : " ") + unknown
              + " for format '" + name + "'; it accepts " + new TreeSet<>(p.options()));
        }
        return source;
      }
    }
    throw new IllegalArgumentException("Unknown source format '" + format + "'; the known formats are " + formats());
  }
}
