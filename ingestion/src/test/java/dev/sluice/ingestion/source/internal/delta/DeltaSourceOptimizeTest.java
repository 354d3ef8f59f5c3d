package dev.sluice.ingestion.source.internal.delta;

import static dev.sluice.ingestion.source.internal.delta.DeltaSourceFixture.drain;
import static dev.sluice.ingestion.source.internal.delta.DeltaSourceFixture.ids;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.ingestion.source.internal.delta.DeltaSourceFixture.Planned;
import dev.sluice.table.storage.LocalObjectStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A stream reading a table goes on past the table's OPTIMIZE commits (dataChange=false) without re-reading rows. */
class DeltaSourceOptimizeTest {
  @TempDir Path dir;
  DeltaSourceFixture t;

  @BeforeEach
  void setUp() {
    t = new DeltaSourceFixture(new LocalObjectStore(dir), "silver/orders");
  }

  private static SourceOffset endOf(List<Planned> batches) {
    return batches.get(batches.size() - 1).end();
  }

  @Test
  void anOptimizeBetweenTwoAppendsIsSkippedAndItsRewrittenRowsAreNotReadAgain() {
    t.table.create(DeltaSourceFixture.SCHEMA).commit();
    t.append(0, 4, true);
    Source source = t.source(Map.of());
    SourceOffset afterSnapshot = endOf(drain(source, Optional.empty(), ReadLimit.ALL));
    assertThat(t.table.optimize().execute().filesRemoved()).isEqualTo(4);
    t.append(4, 6);

    assertThat(ids(drain(source, Optional.of(afterSnapshot), ReadLimit.ALL))).containsExactly(4L, 5L);
  }

  @Test
  void aStreamStartingBeforeAZOrderOptimizeReadsEachRowOnce() {
    t.table.create(DeltaSourceFixture.SCHEMA).commit();
    t.append(0, 3, true);
    t.table.optimize().zOrderBy("id", "name").execute();
    t.append(3, 4);

    assertThat(ids(drain(t.source(Map.of("startingVersion", "0")), Optional.empty(), ReadLimit.ALL)))
        .containsExactly(0L, 1L, 2L, 3L);
  }

  @Test
  void theChangeFeedHasNoRowsForAnOptimize() {
    t.table.create(DeltaSourceFixture.SCHEMA).enableChangeDataFeed().commit();
    t.append(0, 3, true);
    Source source = t.source(Map.of("readChangeFeed", "true"));
    SourceOffset afterSnapshot = endOf(drain(source, Optional.empty(), ReadLimit.ALL));
    t.table.optimize().execute();
    t.append(3, 4);

    assertThat(drain(source, Optional.of(afterSnapshot), ReadLimit.ALL).stream()
        .flatMap(p -> p.batch().rows().stream()).map(r -> r.get(0) + ":" + r.get(2)).toList())
        .containsExactly("3:insert");
  }
}
