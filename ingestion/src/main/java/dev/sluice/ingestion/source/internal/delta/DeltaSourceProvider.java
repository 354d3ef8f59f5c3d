package dev.sluice.ingestion.source.internal.delta;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceContext;
import dev.sluice.ingestion.source.SourceProvider;
import dev.sluice.table.Table;
import java.util.Set;

/** Creates {@code delta} sources: another Sluice/Delta table read as a stream (found by {@link java.util.ServiceLoader}). */
public final class DeltaSourceProvider implements SourceProvider {
  @Override
  public Set<String> formats() {
    return Set.of("delta");
  }

  @Override
  public Set<String> options() {
    return DeltaSourceOptions.KEYS;
  }

  /**
   * @throws IllegalArgumentException naming a bad option, a missing path or a declared schema
   * @throws dev.sluice.table.exceptions.TableNotFoundException if there is no table at the path
   */
  @Override
  public Source create(String format, SourceContext context) {
    DeltaSourceOptions options = DeltaSourceOptions.parse(context.options());
    String path = context.path().orElseThrow(DeltaSourceErrors::missingPath);
    Location location = context.resolver().apply(path);
    if (context.userSchema().isPresent()) {
      throw DeltaSourceErrors.userSchema("DeltaSource[" + location + "]");
    }
    return new DeltaSource(Table.forPath(location.store(), location.key()), options);
  }
}
