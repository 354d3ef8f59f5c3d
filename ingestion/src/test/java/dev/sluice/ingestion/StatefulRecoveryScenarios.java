package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.EventStreams.Event;
import dev.sluice.ingestion.EventStreams.OracleBatch;
import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import dev.sluice.table.Table;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A windowed aggregation and a dropDuplicatesWithinWatermark run (a) uninterrupted, (b) as several
 * availableNow runs over files landed in random rounds, (c) crashed inside random batches before or
 * after the sink commit and restarted: each ends with the same output and late rows, equal to the
 * oracle's. Subclasses choose the storage (local disk, S3).
 */
abstract class StatefulRecoveryScenarios {
  private static final int FILES = 12;

  /** A session able to reach {@link #root}. */
  abstract SluiceSession session();

  /** A fresh folder or prefix URI for one scenario. */
  abstract String root(String name);

  /** Lands one file (discovery order must follow the order of calls). */
  abstract void put(SluiceSession session, String folder, String name, byte[] bytes);

  @AfterEach
  void clearInterceptors() {
    BatchInterceptor.REGISTRY.clear();
  }

  enum Query { WINDOW_AGGREGATION, DEDUP_WITHIN_WATERMARK }

  /** What a scenario ends with: output rows as text, and late rows as seq@watermark (batch ids differ by scenario). */
  record Outcome(Set<String> output, Set<String> late) {}

  private StreamingQuery start(SluiceSession session, Query query, String root, String name) {
    StreamFrame events = session.readStream().format("json").schema(EventStreams.SCHEMA)
        .option("maxFilesPerTrigger", "1").load(root + "/landing").withWatermark("ts", EventStreams.DELAY);
    StreamFrame frame = query == Query.WINDOW_AGGREGATION
        ? events.groupBy("window(ts, '1 minute')", "key").agg(EventStreams.AGGREGATES)
        : events.dropDuplicatesWithinWatermark("key");
    return frame.writeStream().queryName(name).trigger(Trigger.availableNow())
        .option("lateRowsTable", root + "/late").toTable(root + "/out");
  }

  private Outcome outcome(SluiceSession session, Query query, String root) {
    Table out = session.table(root + "/out");
    Set<String> output = query == Query.WINDOW_AGGREGATION
        ? EventStreams.rows(out).stream().map(EventStreams::groupRow).collect(Collectors.toCollection(TreeSet::new))
        : StatefulOracleTest.seqs(out).stream().map(String::valueOf).collect(Collectors.toCollection(TreeSet::new));
    Set<String> late = EventStreams.lateRows(session.table(root + "/late")).stream()
        .map(l -> l.seq() + "@" + l.watermarkMs()).collect(Collectors.toCollection(TreeSet::new));
    return new Outcome(output, late);
  }

  private static Outcome oracle(Query query, List<List<Event>> files) {
    List<OracleBatch> batches = EventStreams.batches(files, 1);
    Set<String> late = new TreeSet<>();
    Set<String> output = new TreeSet<>();
    if (query == Query.WINDOW_AGGREGATION) {
      EventStreams.Grouped g = EventStreams.groupBy(batches, 60_000, 60_000, true, EventStreams.finalWatermark(batches));
      output.addAll(g.rows());
      g.late().forEach(l -> late.add(l.seq() + "@" + l.watermarkMs()));
    } else {
      EventStreams.Deduped d = EventStreams.dedupWithinWatermark(batches);
      d.passed().forEach(s -> output.add(String.valueOf(s)));
      d.late().forEach(l -> late.add(l.seq() + "@" + l.watermarkMs()));
    }
    return new Outcome(output, late);
  }

  private void land(SluiceSession session, String root, List<List<Event>> files, int from, int to) {
    EventStreams.write(files, from, to, (name, bytes) -> put(session, root + "/landing", name, bytes));
  }

  @ParameterizedTest
  @CsvSource({"WINDOW_AGGREGATION, 21", "WINDOW_AGGREGATION, 22", "DEDUP_WITHIN_WATERMARK, 23",
      "DEDUP_WITHIN_WATERMARK, 24"})
  void restartsAndCrashesDontChangeTheResult(Query query, long seed) {
    List<List<Event>> files = EventStreams.generate(seed, FILES, 4);
    Random random = new Random(seed);
    Outcome expected = oracle(query, files);
    assertThat(expected.output()).isNotEmpty();
    assertThat(expected.late()).isNotEmpty();
    try (SluiceSession session = session()) {
      String name = "r" + seed;

      String uninterrupted = root(name + "-once");
      land(session, uninterrupted, files, 0, FILES);
      start(session, query, uninterrupted, name).awaitTermination();
      assertThat(outcome(session, query, uninterrupted)).isEqualTo(expected);

      // (b) files landed in random rounds, one availableNow run per round
      String rounds = root(name + "-rounds");
      int landed = 0;
      int runs = 0;
      while (landed < FILES) {
        int next = Math.min(FILES, landed + 1 + random.nextInt(4));
        land(session, rounds, files, landed, next);
        landed = next;
        start(session, query, rounds, name).awaitTermination();
        runs++;
      }
      assertThat(runs).isGreaterThan(1);
      assertThat(outcome(session, query, rounds)).isEqualTo(expected);

      // (c) crashes inside two random batches, before and after the sink commit, then restarts
      for (BatchInterceptor.Step step : List.of(BatchInterceptor.Step.BEFORE_SINK, BatchInterceptor.Step.AFTER_SINK)) {
        String crashed = root(name + "-" + step.name().toLowerCase());
        land(session, crashed, files, 0, FILES);
        long first = 1 + random.nextInt(FILES / 2);
        long second = first + 1 + random.nextInt(FILES / 2);
        Set<Long> crashAt = new TreeSet<>(List.of(first, second));
        AtomicInteger crashes = new AtomicInteger();
        BatchInterceptor.REGISTRY.put(name, (s, batchId) -> {
          if (s == step && crashAt.remove(batchId)) {
            crashes.incrementAndGet();
            throw new IllegalStateException("injected crash at " + s + " of batch " + batchId);
          }
        });
        for (int attempt = 0; attempt < 2; attempt++) {
          assertThatThrownBy(() -> start(session, query, crashed, name).awaitTermination())
              .isInstanceOf(StreamingQueryException.class).hasMessageContaining("injected crash at " + step);
        }
        start(session, query, crashed, name).awaitTermination();
        BatchInterceptor.REGISTRY.remove(name);
        assertThat(crashes).hasValue(2);
        assertThat(outcome(session, query, crashed)).as("crashes at %s", step).isEqualTo(expected);
      }
    }
  }
}
