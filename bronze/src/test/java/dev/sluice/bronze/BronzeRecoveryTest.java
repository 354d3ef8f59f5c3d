package dev.sluice.bronze;

import static dev.sluice.bronze.BronzeFixture.config;
import static dev.sluice.bronze.BronzeFixture.rows;
import static dev.sluice.bronze.BronzeFixture.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQueryException;
import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import dev.sluice.table.Table;
import dev.sluice.table.testing.FailingObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bronze batch interrupted part-way is re-run by the next start and lands exactly once in both tables. */
class BronzeRecoveryTest {
  @TempDir Path tmp;
  Path input;
  SluiceConfig config;
  final AtomicBoolean failBronzeCommit = new AtomicBoolean();

  @BeforeEach
  void setUp() throws IOException {
    input = Files.createDirectories(tmp.resolve("landing"));
    Files.writeString(input.resolve("a.json"), "{\"id\":1}\n{oops\n{\"id\":2,\"extra\":\"e\"}\n");
    config = config(tmp.resolve("wh").toUri().toString(),
        "{format: json, path: " + input + ", schema: [{name: id, type: long}]}", "");
  }

  @AfterEach
  void clear() {
    BatchInterceptor.REGISTRY.clear();
  }

  SluiceSession session() {
    return SluiceSession.builder().wrapStores(store -> new FailingObjectStore(store).failCreatesMatching(key ->
        failBronzeCommit.get() && key.endsWith("bronze/orders/_delta_log/00000000000000000001.json"))).build();
  }

  @Test
  void aCrashBetweenTheQuarantineAndTheBronzeCommitIsRepairedByTheRerun() {
    try (SluiceSession session = session()) {
      failBronzeCommit.set(true);
      assertThatThrownBy(() -> run(session, config)).isInstanceOf(StreamingQueryException.class);
      Table quarantine = session.table(tmp.resolve("wh/bronze/orders_quarantine").toString());
      assertThat(rows(quarantine)).hasSize(1);
      failBronzeCommit.set(false);
      run(session, config);
      assertThat(rows(quarantine)).extracting(r -> r.get("raw")).containsExactly("{oops");
      Table bronze = session.table(tmp.resolve("wh/bronze/orders").toString());
      assertThat(rows(bronze)).extracting(r -> r.get("id"), r -> r.get("_rescued_data")).containsExactlyInAnyOrder(
          org.assertj.core.groups.Tuple.tuple(1L, null), org.assertj.core.groups.Tuple.tuple(2L, "{\"extra\":\"e\"}"));
      BronzeFixture.assertLedgerBalances(bronze, quarantine, java.util.List.of());
    }
  }

  @Test
  void aCrashAfterBothCommitsSkipsBothOnTheRerun() {
    AtomicBoolean crashed = new AtomicBoolean();
    BatchInterceptor.REGISTRY.put(BronzeFixture.PIPELINE, (step, batchId) -> {
      if (step == BatchInterceptor.Step.AFTER_SINK && crashed.compareAndSet(false, true)) {
        throw new IllegalStateException("injected crash after the sink");
      }
    });
    try (SluiceSession session = session()) {
      assertThatThrownBy(() -> run(session, config)).hasMessageContaining("injected crash");
      Table bronze = session.table(tmp.resolve("wh/bronze/orders").toString());
      Table quarantine = session.table(tmp.resolve("wh/bronze/orders_quarantine").toString());
      long bronzeVersion = bronze.latestVersion().getAsLong();
      long quarantineVersion = quarantine.latestVersion().getAsLong();
      run(session, config);
      assertThat(bronze.latestVersion().getAsLong()).isEqualTo(bronzeVersion);
      assertThat(quarantine.latestVersion().getAsLong()).isEqualTo(quarantineVersion);
      assertThat(rows(bronze)).hasSize(2);
      assertThat(rows(quarantine)).hasSize(1);
    }
  }
}
