package dev.sluice.ingestion.source.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.source.SourceProvider;
import java.util.HashSet;
import java.util.ServiceLoader;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProviderRegistrationTest {
  @Test
  void serviceLoaderFindsTheBuiltInFormats() {
    Set<String> formats = new HashSet<>();
    for (SourceProvider p : ServiceLoader.load(SourceProvider.class)) {
      formats.addAll(p.formats());
      assertThat(p.options()).allMatch(k -> k.equals(k.toLowerCase(java.util.Locale.ROOT)));
    }
    assertThat(formats).contains("files", "json", "csv", "parquet", "rate", "memory");
  }
}
