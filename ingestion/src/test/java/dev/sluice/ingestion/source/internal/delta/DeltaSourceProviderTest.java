package dev.sluice.ingestion.source.internal.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.source.SourceContext;
import dev.sluice.ingestion.source.SourceProvider;
import dev.sluice.ingestion.source.internal.delta.DeltaSourceOptions.Start;
import dev.sluice.table.exceptions.TableNotFoundException;
import dev.sluice.table.storage.LocalObjectStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaSourceProviderTest {
  @TempDir Path dir;

  @Test
  void isFoundByServiceLoaderUnderTheNameDelta() {
    assertThat(ServiceLoader.load(SourceProvider.class).stream().map(ServiceLoader.Provider::get)
        .filter(p -> p.formats().contains("delta")).findFirst()).get().isInstanceOf(DeltaSourceProvider.class);
    assertThat(new DeltaSourceProvider().options()).containsExactlyInAnyOrder("startingversion", "startingtimestamp",
        "maxfilespertrigger", "maxbytespertrigger", "skipchangecommits", "readchangefeed", "rereadfiles", "columns");
  }

  @Test
  void parsesOptionsCaseInsensitively() {
    DeltaSourceOptions o = DeltaSourceOptions.parse(Map.of("STARTINGVERSION", "3", "maxBytesPerTrigger", "64m",
        "maxfilespertrigger", "10", "SkipChangeCommits", "TRUE"));

    assertThat(o).isEqualTo(new DeltaSourceOptions(new Start.AtVersion(3), 10, 64L << 20, true, false, false,
        java.util.Optional.empty()));
    assertThat(DeltaSourceOptions.parse(Map.of())).isEqualTo(
        new DeltaSourceOptions(new Start.InitialSnapshot(), 1000, Long.MAX_VALUE, false, false, false,
            java.util.Optional.empty()));
    assertThat(DeltaSourceOptions.parse(Map.of("startingVersion", "latest")).start()).isEqualTo(new Start.Latest());
    assertThat(DeltaSourceOptions.parse(Map.of("startingTimestamp", "2026-11-30 10:00:00")).start())
        .isEqualTo(new Start.AtTimestamp(Instant.parse("2026-11-30T10:00:00Z")));
    assertThat(DeltaSourceOptions.parse(Map.of("startingTimestamp", "2026-11-30")).start())
        .isEqualTo(new Start.AtTimestamp(Instant.parse("2026-11-30T00:00:00Z")));
    assertThat(DeltaSourceOptions.parse(Map.of("maxBytesPerTrigger", "1g")).maxBytesPerTrigger()).isEqualTo(1L << 30);
    assertThat(DeltaSourceOptions.parse(Map.of("Columns", " amount , customer_id")).columns())
        .contains(java.util.List.of("amount", "customer_id"));
  }

  @Test
  void refusesUnknownContradictoryAndMalformedOptions() {
    assertThatThrownBy(() -> DeltaSourceOptions.parse(Map.of("startingOffsets", "earliest")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Unknown option 'startingOffsets' for the delta source. Accepted options: [columns,"
            + " maxbytespertrigger, maxfilespertrigger, readchangefeed, rereadfiles, skipchangecommits,"
            + " startingtimestamp, startingversion] (case-insensitive).");
    assertThatThrownBy(() -> DeltaSourceOptions.parse(Map.of("ignoreDeletes", "true")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Option 'ignoreDeletes' is not supported").hasMessageContaining("skipChangeCommits=true");
    assertThatThrownBy(() -> DeltaSourceOptions.parse(Map.of("startingVersion", "1", "startingTimestamp", "2026-01-01")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("give at most one");
    assertThatThrownBy(() -> DeltaSourceOptions.parse(Map.of("skipChangeCommits", "true", "readChangeFeed", "true")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot be combined");
    assertThatThrownBy(() -> DeltaSourceOptions.parse(Map.of("maxFilesPerTrigger", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Option maxFilesPerTrigger of the delta source is '0'; it must be a number greater than 0.");
    assertThatThrownBy(() -> DeltaSourceOptions.parse(Map.of("maxBytesPerTrigger", "lots")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a size in bytes such as");
    assertThatThrownBy(() -> DeltaSourceOptions.parse(Map.of("startingVersion", "-1")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a version number (0 or more) or 'latest'");
    assertThatThrownBy(() -> DeltaSourceOptions.parse(Map.of("startingTimestamp", "yesterday")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("an ISO timestamp");
    assertThatThrownBy(() -> DeltaSourceOptions.parse(Map.of("readChangeFeed", "yes")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("true or false");
  }

  @Test
  void needsAPathAnExistingTableAndNoDeclaredSchema() {
    LocalObjectStore store = new LocalObjectStore(dir);
    assertThatThrownBy(() -> create(store, Optional.empty(), Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("The delta source needs a path");
    assertThatThrownBy(() -> create(store, Optional.of(DeltaSourceFixture.SCHEMA), Optional.of("t")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("remove the declared schema");
    assertThatThrownBy(() -> create(store, Optional.empty(), Optional.of("missing")))
        .isInstanceOf(TableNotFoundException.class).hasMessageContaining("missing");
  }

  private static void create(LocalObjectStore store, Optional<dev.sluice.table.types.StructType> schema,
      Optional<String> path) {
    new DeltaSourceProvider().create("delta", new SourceContext(Map.of(), schema, path,
        new Location(store, "_checkpoints/q/sources/0"), p -> new Location(store, p), Clock.systemUTC()));
  }
}
