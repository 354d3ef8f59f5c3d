package dev.sluice.ingestion.source.internal;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.source.SourceContext;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** Source contexts over local temp folders, as the runner would build them. */
public final class TestContexts {
  private static final LocalObjectStore FILESYSTEM = new LocalObjectStore(Path.of("/"));

  private TestContexts() {}

  /** Maps an absolute path to a location in a store rooted at '/'. */
  public static Function<String, Location> resolver() {
    return path -> new Location(FILESYSTEM, path.startsWith("/") ? path.substring(1) : path);
  }

  /** A context whose checkpoint folder is {@code <tmp>/ckpt/sources/0}. */
  public static SourceContext context(Path tmp, Map<String, String> options, StructType schema, Path input, Clock clock) {
    Location metadata = new Location(new LocalObjectStore(tmp), "ckpt/sources/0");
    return new SourceContext(options, Optional.ofNullable(schema), Optional.ofNullable(input).map(Path::toString),
        metadata, resolver(), clock);
  }

  public static SourceContext context(Path tmp, Map<String, String> options, StructType schema, Path input) {
    return context(tmp, options, schema, input, Clock.systemUTC());
  }
}
