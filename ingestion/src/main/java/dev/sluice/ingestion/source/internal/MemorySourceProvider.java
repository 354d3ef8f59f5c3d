package dev.sluice.ingestion.source.internal;

import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceContext;
import dev.sluice.ingestion.source.SourceProvider;
import java.util.Set;

/** Creates {@code memory} sources over the {@link MemoryStream} named by option {@code name}. */
public final class MemorySourceProvider implements SourceProvider {
  @Override
  public Set<String> formats() {
    return Set.of("memory");
  }

  @Override
  public Set<String> options() {
    return Set.of("name");
  }

  @Override
  public Source create(String format, SourceContext context) {
    SourceOptions o = SourceOptions.check(format, context, options());
    String name = o.string("name").orElseThrow(() -> new IllegalArgumentException(
        "The memory source needs option 'name': the name given to MemoryStream.named(name, schema)"));
    MemoryStream stream = MemoryStream.lookup(name);
    if (context.userSchema().isPresent() && !context.userSchema().get().equals(stream.schema())) {
      throw new IllegalArgumentException("Memory stream '" + name + "' has schema " + stream.schema()
          + " but the query declares " + context.userSchema().get() + "; drop the declared schema or fix it");
    }
    return stream.source();
  }
}
