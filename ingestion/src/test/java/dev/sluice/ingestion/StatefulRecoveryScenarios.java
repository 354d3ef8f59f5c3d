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
 * A windowed aggregation (append to Delta, update MERGEd by group), dropDuplicatesWithinWatermark and
 * dropDuplicates run (a) uninterrupted, (b) as several
 * availableNow runs over files landed in random rounds, (c) crashed inside random batches before or
 * after the sink commit and restarted: each ends with the same output and late rows, equal to the
 * oracle's; so does (d) a continuous query stopped and restarted at random points. Subclasses choose the storage (local disk, S3).
 */
abstract class StatefulRecoveryScenarios {
  private static final int FILES = 12;

  /** A session able to reach {@link #root}. */
  abstract SluiceSession session();

  /** A fresh folder or prefix URI for one scenario. */
  abstract String root(String name);

  /** Lands one file (discovery order must follow the order of calls). */
  abstract void put(SluiceSession session, String folder, String name, byte[] bytes);

  /** Whether files may land while a query lists the folder (false where a listing can show half-written objects). */
  boolean landsWhileRunning() {
    return true;
  }

  @AfterEach
  void clearInterceptors() {
    BatchInterceptor.REGISTRY.clear();
  }

  enum Query { WINDOW_AGGREGATION, UPDATE_MERGE, DEDUP_WITHIN_WATERMARK, DROP_DUPLICATES }

  /** What a scenario ends with: output rows as text, and late rows as seq@watermark (batch ids differ by scenario). */
  record Outcome(Set<String> output, Set<String> late) {}

  private StreamingQuery start(SluiceSession session, Query query, String root, String name) {
    return start(session, query, root, name, Trigger.availableNow());
  }

  private StreamingQuery start(SluiceSession session, Query query, String root, String name, Trigger trigger) {
    StreamFrame events = session.readStream().format("json").schema(EventStreams.SCHEMA)
        .option("maxFilesPerTrigger", "1").load(root + "/landing").withWatermark("ts", EventStreams.DELAY);
    StreamFrame frame = switch (query) {
      case WINDOW_AGGREGATION, UPDATE_MERGE -> events.groupBy("window(ts, '1 minute')", "key").agg(EventStreams.AGGREGATES);
      case DEDUP_WITHIN_WATERMARK -> events.dropDuplicatesWithinWatermark("key");
      case DROP_DUPLICATES -> events.dropDuplicates("key", "ts");
    };
    DataStreamWriter writer = frame.writeStream().queryName(name).trigger(trigger)
        .option("lateRowsTable", root + "/late");
    if (query == Query.UPDATE_MERGE) {
      return writer.outputMode("update").option("checkpointLocation", root + "/checkpoint")
          .foreachBatch(MergeIntoTable.into(session.table(root + "/out"), name, "window", "key")).start();
    }
    return writer.toTable(root + "/out");
  }

  private Outcome outcome(SluiceSession session, Query query, String root) {
    Table out = session.table(root + "/out");
    Set<String> output = query == Query.WINDOW_AGGREGATION || query == Query.UPDATE_MERGE
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
    if (query == Query.WINDOW_AGGREGATION || query == Query.UPDATE_MERGE) {
      EventStreams.Grouped g = EventStreams.groupBy(batches, 60_000, 60_000, true,
          query == Query.UPDATE_MERGE ? Long.MAX_VALUE : EventStreams.finalWatermark(batches));
      output.addAll(g.rows());
      g.late().forEach(l -> late.add(l.seq() + "@" + l.watermarkMs()));
    } else {
      EventStreams.Deduped d = query == Query.DROP_DUPLICATES ? EventStreams.dropDuplicates(batches)
          : EventStreams.dedupWithinWatermark(batches);
      d.passed().forEach(s -> output.add(String.valueOf(s)));
      d.late().forEach(l -> late.add(l.seq() + "@" + l.watermarkMs()));
    }
    return new Outcome(output, late);
  }

  private void land(SluiceSession session, String root, List<List<Event>> files, int from, int to) {
    EventStreams.write(files, from, to, (name, bytes) -> put(session, root + "/landing", name, bytes));
  }

  @ParameterizedTest
  @CsvSource({"WINDOW_AGGREGATION, 21", "WINDOW_AGGREGATION, 22", "UPDATE_MERGE, 25", "DEDUP_WITHIN_WATERMARK, 23",
      "DEDUP_WITHIN_WATERMARK, 24", "DROP_DUPLICATES, 26"})
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

      // (d) a continuous query stopped at random points (also while batches run) and restarted
      String continuous = root(name + "-continuous");
      land(session, continuous, files, 0, 1);
      StreamingQuery running = start(session, query, continuous, name, Trigger.processingTime("0 seconds"));
      int stops = 0;
      for (int f = 1; f < FILES; ) {
        int next = Math.min(FILES, f + 1 + random.nextInt(3));
        if (!landsWhileRunning()) {
          running.stop();
          assertThat(running.exception()).isEmpty();
        }
        land(session, continuous, files, f, next);
        if (!landsWhileRunning()) {
          running = start(session, query, continuous, name, Trigger.processingTime("0 seconds"));
        }
        f = next;
        if (random.nextBoolean()) {
          running.processAllAvailable();
        }
        if (random.nextInt(3) == 0) {
          running.stop();
          assertThat(running.exception()).isEmpty();
          stops++;
          running = start(session, query, continuous, name, Trigger.processingTime("0 seconds"));
        }
      }
      running.processAllAvailable();
      running.stop();
      assertThat(running.exception()).isEmpty();
      assertThat(stops).isPositive();
      assertThat(outcome(session, query, continuous)).isEqualTo(expected);

      // (c) crashes inside two random batches, before and after the sink commit, then restarts
      for (BatchInterceptor.Step step : List.of(BatchInterceptor.Step.BEFORE_SINK, BatchInterceptor.Step.AFTER_SINK)) {
        String crashed = root(name + "-" + step.name().toLowerCase());
        land(session, crashed, files, 0, FILES);
        long first = 1 + random.nextInt(FILES / 2);
        long second = first + 1 + random.nextInt(FILES - 1 - (int) first); // a data batch: ids 0 to FILES-1
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
