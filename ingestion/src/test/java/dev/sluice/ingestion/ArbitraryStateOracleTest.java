package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.EventStreams.Event;
import dev.sluice.ingestion.EventStreams.OracleBatch;
import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import dev.sluice.ingestion.stateful.Encoders;
import dev.sluice.ingestion.stateful.GroupStateTimeout;
import dev.sluice.table.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Event-time sessions with flatMapGroupsWithState (append to Delta, EventTimeTimeout) over seeded random streams
 * with disorder, late and re-sent events, cut into random batches, equal the plain sessionization of the accepted
 * events; the late ones are in the late-rows table; the state holds exactly the keys with open sessions (closed
 * ones are evicted). The same holds when the files land in rounds (one availableNow run each) and when a run
 * crashes at each step of the protocol and restarts.
 */
class ArbitraryStateOracleTest {
  private static final int FILES = 12;

  @TempDir
  Path dir;
  private final SluiceSession session = SluiceSession.create();

  @AfterEach
  void close() {
    BatchInterceptor.REGISTRY.clear();
    session.close();
  }

  private void land(Path root, List<List<Event>> files, int from, int to) {
    long[] mtime = {1_700_000_000_000L + from * 1000L};
    EventStreams.write(files, from, to, (name, bytes) -> {
      try {
        Path landing = Files.createDirectories(root.resolve("landing"));
        Files.write(landing.resolve(name), bytes).toFile().setLastModified(mtime[0] += 1000);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  private StreamingQuery start(Path root, int k, String name) {
    return session.readStream().format("json").schema(EventStreams.SCHEMA)
        .option("maxFilesPerTrigger", Integer.toString(k)).load(root.resolve("landing").toString())
        .withWatermark("ts", EventStreams.DELAY).groupByKey("key")
        .flatMapGroupsWithState(new GapSessions.Function(), OutputMode.APPEND, Encoders.record(GapSessions.Spans.class),
            Encoders.record(GapSessions.Session.class), GroupStateTimeout.EventTimeTimeout())
        .writeStream().queryName(name).outputMode("append").trigger(Trigger.availableNow())
        .option("lateRowsTable", root.resolve("late").toString()).toTable(root.resolve("out").toString());
  }

  private Set<String> sessions(Path root) {
    return EventStreams.rows(session.table(root.resolve("out").toString())).stream().map(GapSessions::text)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private Set<Long> late(Path root) {
    Table t = session.table(root.resolve("late").toString());
    return EventStreams.lateRows(t).stream().map(EventStreams.LateEvent::seq)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  @ParameterizedTest
  @ValueSource(longs = {41, 43})
  void sessionsOfRandomBatchesEqualThePlainSessionization(long seed) {
    List<List<Event>> files = EventStreams.generate(seed, FILES, 5);
    int k = 1 + new Random(seed).nextInt(3);
    List<OracleBatch> batches = EventStreams.batches(files, k);
    GapSessions.Expected expected = GapSessions.expected(batches);
    assertThat(expected.sessions()).isNotEmpty();
    assertThat(expected.lateSeqs()).as("seed %d has late events", seed).isNotEmpty();

    Path root = dir.resolve("once");
    land(root, files, 0, FILES);
    StreamingQuery q = start(root, k, "gap-sessions");
    q.awaitTermination();

    assertThat(sessions(root)).containsExactlyElementsOf(expected.sessions());
    assertThat(late(root)).containsExactlyElementsOf(expected.lateSeqs());
    assertThat(q.lastProgress().orElseThrow().stateOperators().get(0).numRowsTotal())
        .as("state holds only keys with open sessions").isEqualTo(expected.keysInState());
  }

  @ParameterizedTest
  @ValueSource(longs = {45})
  void roundsAndCrashesAtEveryStepDontChangeTheSessions(long seed) {
    int n = 8;
    List<List<Event>> files = EventStreams.generate(seed, n, 4);
    GapSessions.Expected expected = GapSessions.expected(EventStreams.batches(files, 1));
    assertThat(expected.sessions()).isNotEmpty();
    Random random = new Random(seed);
    String name = "gap-" + seed;

    Path rounds = dir.resolve("rounds");
    int landed = 0;
    while (landed < n) {
      int next = Math.min(n, landed + 1 + random.nextInt(4));
      land(rounds, files, landed, next);
      landed = next;
      start(rounds, 1, name).awaitTermination();
    }
    assertThat(sessions(rounds)).containsExactlyElementsOf(expected.sessions());
    assertThat(late(rounds)).containsExactlyElementsOf(expected.lateSeqs());

    for (BatchInterceptor.Step step : BatchInterceptor.Step.values()) {
      Path crashed = dir.resolve("crash-" + step.name().toLowerCase());
      land(crashed, files, 0, n);
      long at = 1 + random.nextInt(n - 2);
      AtomicInteger crashes = new AtomicInteger();
      BatchInterceptor.REGISTRY.put(name, (s, batchId) -> {
        if (s == step && batchId == at && crashes.get() == 0) {
          crashes.incrementAndGet();
          throw new IllegalStateException("injected crash at " + s + " of batch " + batchId);
        }
      });
      assertThatThrownBy(() -> start(crashed, 1, name).awaitTermination())
          .isInstanceOf(StreamingQueryException.class).hasMessageContaining("injected crash at " + step);
      start(crashed, 1, name).awaitTermination();
      BatchInterceptor.REGISTRY.remove(name);
      assertThat(crashes).hasValue(1);
      assertThat(sessions(crashed)).as("crash at %s of batch %d", step, at)
          .containsExactlyElementsOf(expected.sessions());
      assertThat(late(crashed)).containsExactlyElementsOf(expected.lateSeqs());
    }
  }
}
