package dev.sluice.ingestion.source.internal;

import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceContext;
import dev.sluice.ingestion.source.SourceProvider;
import java.util.Set;

/**
 * Creates {@code rate} sources: {@code rowsPerSecond} (real time, default 1) or {@code rowsPerBatch}
 * (deterministic), {@code startTimestamp} (epoch ms; default: first start for rowsPerSecond, 0 for
 * rowsPerBatch), {@code advanceMillisPerBatch} (default 1000); {@code numPartitions} is accepted and
 * ignored (there is one partition).
 */
public final class RateSourceProvider implements SourceProvider {
  @Override
  public Set<String> formats() {
    return Set.of("rate");
  }

  @Override
  public Set<String> options() {
    return Set.of("rowspersecond", "rowsperbatch", "starttimestamp", "advancemillisperbatch", "numpartitions");
  }

  @Override
  public Source create(String format, SourceContext context) {
    SourceOptions o = SourceOptions.check(format, context, options());
    if (context.userSchema().isPresent() && !context.userSchema().get().equals(RateSource.SCHEMA)) {
      throw new IllegalArgumentException("The rate source does not take a schema: its columns are always "
          + RateSource.SCHEMA + "; remove the schema");
    }
    long perBatch = o.longValue("rowsPerBatch", 1).orElse(0L);
    if (perBatch > 0 && o.string("rowsPerSecond").isPresent()) {
      throw new IllegalArgumentException("The rate source takes rowsPerSecond or rowsPerBatch, not both; remove one");
    }
    long perSecond = perBatch > 0 ? 0 : o.longValue("rowsPerSecond", 1).orElse(1L);
    o.longValue("numPartitions", 1);
    long advance = o.longValue("advanceMillisPerBatch", 0).orElse(1000L);
    long start = o.longValue("startTimestamp", 0).orElseGet(
        () -> perBatch > 0 ? 0L : RateSource.startMillis(context.metadataLocation(), context.clock()));
    return new RateSource(perSecond, perBatch, start, advance, context.clock());
  }
}
