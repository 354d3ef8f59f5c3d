package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.EventStreams.Event;
import dev.sluice.ingestion.EventStreams.OracleBatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stateful plan against its checkpoint (a changed plan is refused with each difference, filters and
 * rate limits may change), the analyzer's rules, the state folder layout and the state progress fields.
 */
class StatefulCheckpointTest {
  private static final int FILES = 24;

  @TempDir
  Path dir;
  private SluiceSession session;
  private List<List<Event>> files;
  private long mtime = 1_700_000_000_000L;

  @BeforeEach
  void open() {
    session = SluiceSession.create();
    files = EventStreams.generate(42, FILES, 5);
  }

  @AfterEach
  void close() {
    session.close();
  }

  private void land(int from, int to) {
    EventStreams.write(files, from, to, (name, bytes) -> {
      try {
        Path file = Files.write(Files.createDirectories(dir.resolve("landing")).resolve(name), bytes);
        file.toFile().setLastModified(mtime += 1000);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  private StreamFrame events(int maxFiles) {
    return session.readStream().format("json").schema(EventStreams.SCHEMA)
        .option("maxFilesPerTrigger", Integer.toString(maxFiles)).load(dir.resolve("landing").toString());
  }

  /** The base query: watermark, 1-minute windows by key, count and sum, in {@code mode}, to a memory sink. */
  private static StreamFrame aggregation(StreamFrame events) {
    return events.withWatermark("ts", EventStreams.DELAY).groupBy("window(ts, '1 minute')", "key")
        .agg("count(*) AS cnt", "sum(value) AS total");
  }

  private StreamingQuery run(StreamFrame frame, String mode) {
    return frame.writeStream().format("memory").queryName("compat").outputMode(mode).trigger(Trigger.availableNow())
        .option("checkpointLocation", dir.resolve("ck").toString()).start();
  }

  private List<String> refusal(StreamFrame frame, String mode) {
    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> run(frame, mode).awaitTermination());
    assertThat(thrown).isInstanceOf(CheckpointIncompatibleException.class)
        .hasMessageContaining("differs from the one that wrote the checkpoint ")
        .hasMessageContaining(dir.resolve("ck").toString())
        .hasMessageContaining("Nothing was read or written")
        .hasMessageContaining("new checkpointLocation");
    CheckpointIncompatibleException e = (CheckpointIncompatibleException) thrown;
    e.differences().forEach(d -> assertThat(e.getMessage()).contains("  - " + d));
    return e.differences();
  }

  @Test
  void aChangedStatefulPlanIsRefusedWithEachDifference() {
    land(0, 4);
    run(aggregation(events(1)), "update").awaitTermination();
    long batches = session.memoryTable("compat").size();

    assertThat(refusal(events(1).withWatermark("ts", EventStreams.DELAY).groupBy("window(ts, '1 minute')", "seq")
        .agg("count(*) AS cnt", "sum(value) AS total"), "update"))
        .containsExactly("changed step 1 aggregate keys: key → seq");
    assertThat(refusal(events(1).withWatermark("ts", EventStreams.DELAY).groupBy("window(ts, '1 minute')", "key")
        .agg("count(*) AS cnt", "max(value) AS total"), "update"))
        .containsExactly("changed step 1 aggregate aggregates: count(*) AS cnt,sum(value) AS total → count(*) AS cnt,"
            + "max(value) AS total");
    assertThat(refusal(events(1).withWatermark("ts", EventStreams.DELAY).groupBy("window(ts, '2 minutes')", "value")
        .agg("count(*) AS cnt", "sum(value) AS total"), "update"))
        .containsExactlyInAnyOrder("changed step 1 aggregate keys: key → value",
            "changed step 1 aggregate window: window(ts, 1 minutes) → window(ts, 2 minutes)");
    assertThat(refusal(aggregation(events(1)), "complete")).containsExactly("changed outputMode: update → complete");

    // Nothing was written by the refused starts: the original plan resumes where it stopped.
    land(4, 8);
    run(aggregation(events(1)), "update").awaitTermination();
    assertThat(session.memoryTable("compat").size()).isGreaterThan((int) batches);
  }

  @Test
  void removingTheWatermarkIsRefused() {
    land(0, 3);
    run(aggregation(events(1)), "update").awaitTermination();
    List<String> differences = refusal(events(1).groupBy("window(ts, '1 minute')", "key")
        .agg("count(*) AS cnt", "sum(value) AS total"), "update");
    assertThat(differences).contains("removed step 0 watermark eventTimeColumn (was ts)");
    assertThat(differences).contains("removed step 1 aggregate eventTimeColumn (was ts)",
        "added step 0 aggregate eventTimeColumn = ");
  }

  @Test
  void changedDedupColumnsAreRefused() {
    land(0, 3);
    UnaryOperator<StreamFrame> watermark = f -> f.withWatermark("ts", EventStreams.DELAY);
    run(watermark.apply(events(1)).dropDuplicatesWithinWatermark("key"), "append").awaitTermination();
    assertThat(refusal(watermark.apply(events(1)).dropDuplicatesWithinWatermark("key", "value"), "append"))
        .containsExactly("changed step 1 dedup_within_watermark columns: key → key,value");
    assertThat(refusal(watermark.apply(events(1)).dropDuplicates("key", "ts"), "append")).isNotEmpty()
        .allMatch(d -> d.contains("step 1"));
  }

  @Test
  void filtersAndRateLimitsMayChange() {
    land(0, 6);
    run(aggregation(events(1)), "complete").awaitTermination();
    land(6, 12);
    run(aggregation(events(3).filter("value > -1000")), "complete").awaitTermination();
    // complete mode counts every event whatever the batching: the last batch holds the GROUP BY of files 0-11
    List<List<Event>> taken = files.subList(0, 12);
    Set<String> expected = new HashSet<>();
    EventStreams.groupBy(EventStreams.batches(taken, 1), 60_000, 60_000, false, Long.MAX_VALUE).rows()
        .forEach(r -> expected.add(r.substring(0, nthBar(r, 5))));
    Set<String> actual = session.memoryTable("compat").stream()
        .map(r -> ((dev.sluice.table.data.Row) r.get(0)).get(0) + "|" + ((dev.sluice.table.data.Row) r.get(0)).get(1)
            + "|" + r.get(1) + "|" + r.get(2) + "|" + r.get(3))
        .collect(Collectors.toSet());
    assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
  }

  private static int nthBar(String s, int n) {
    int at = -1;
    for (int i = 0; i < n; i++) {
      at = s.indexOf('|', at + 1);
    }
    return at;
  }

  @Test
  void analyzerRulesNameTheOperatorAndTheFix() {
    String out = dir.resolve("out").toString();
    assertThatThrownBy(() -> events(1).groupBy("window(ts, '1 minute')", "key").agg("count(*) AS cnt")
        .writeStream().outputMode("append").toTable(out))
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("Append output mode is not supported for groupBy(window(ts, 1 minutes), key)"
            + ".agg(count(*) AS cnt) without a watermark")
        .hasMessageContaining("withWatermark(eventTimeColumn, delay)");
    assertThatThrownBy(() -> events(1).filter("value > 0").writeStream().outputMode("complete").toTable(out))
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("Complete output mode needs an aggregation")
        .hasMessageContaining("groupBy(...).agg(...)");
    assertThatThrownBy(() -> events(1).dropDuplicatesWithinWatermark("key").writeStream().toTable(out))
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("dropDuplicatesWithinWatermark[key] needs a watermark (in append mode)")
        .hasMessageContaining("Call withWatermark(eventTimeColumn, delay) before it");
    assertThatThrownBy(() -> aggregation(events(1)).groupBy("key").agg("count(*) AS n").writeStream()
        .outputMode("complete").toTable(out))
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("Multiple streaming aggregations are not supported")
        .hasMessageContaining("is followed by groupBy(key).agg(count(*) AS n)");
    assertThatThrownBy(() -> aggregation(events(1)).writeStream().outputMode("update").toTable(out))
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("The delta sink doesn't support update output mode")
        .hasMessageContaining("MergeIntoTable");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void stateFilesAndProgressArePlausible() throws IOException {
    land(0, FILES);
    StreamingQuery q = events(1).withWatermark("ts", EventStreams.DELAY).groupBy("window(ts, '1 minute')", "key")
        .agg(EventStreams.AGGREGATES).writeStream().queryName("progress").outputMode("append")
        .trigger(Trigger.availableNow()).toTable(dir.resolve("out").toString());
    q.awaitTermination();
    List<QueryProgress> progress = q.recentProgress();
    // one batch per file, then no-data batches while the watermark moved past windows in state
    assertThat(progress.size()).isGreaterThanOrEqualTo(FILES);
    assertThat(progress.subList(FILES, progress.size())).allMatch(p -> p.numInputRows() == 0);

    Path state = dir.resolve("out/_checkpoints/progress/state/0/0");
    Set<String> names;
    try (Stream<Path> list = Files.list(state)) {
      names = list.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
    }
    for (int v = 1; v <= progress.size(); v++) {
      assertThat(names).contains(v + ".delta");
    }
    assertThat(names).contains("10.snapshot", "20.snapshot").doesNotContain("5.snapshot", "15.snapshot");

    List<OracleBatch> batches = EventStreams.batches(files, 1);
    long emitted = 0;
    for (QueryProgress p : progress) {
      assertThat(p.stateOperators()).hasSize(1);
      QueryProgress.StateOperatorProgress s = p.stateOperators().get(0);
      assertThat(s.operatorName()).isEqualTo("stateStoreSave");
      assertThat(s.numRowsTotal()).isNotNegative();
      assertThat(s.numRowsUpdated()).isBetween(0L, p.numInputRows());
      assertThat(s.numRowsRemoved()).isNotNegative();
      assertThat(s.commitTimeMs()).isBetween(0L, p.batchDuration());
      assertThat(s.memoryUsedBytes()).isGreaterThanOrEqualTo(s.numRowsTotal() * 16);
      if (s.numRowsTotal() > 0) {
        assertThat(s.memoryUsedBytes() / s.numRowsTotal()).isLessThan(4096);
      }
      int b = (int) p.batchId();
      if (b < batches.size()) {
        OracleBatch ob = batches.get(b);
        long late = EventStreams.groupBy(List.of(ob), 60_000, 60_000, true, Long.MAX_VALUE).late().size();
        assertThat(s.numRowsDroppedByWatermark()).as("batch %d", b).isEqualTo(late);
        assertThat(p.numInputRows()).isEqualTo(ob.events().size());
      } else {
        assertThat(p.numInputRows()).isZero();
        assertThat(s.numRowsDroppedByWatermark()).isZero();
      }
      emitted += s.numRowsRemoved();
    }
    // append mode: each emitted window is removed from state exactly once, and none is left at the end
    assertThat(emitted).isEqualTo(EventStreams.rows(session.table(dir.resolve("out").toString())).size());
    assertThat(progress.get(progress.size() - 1).stateOperators().get(0).numRowsTotal())
        .isEqualTo(EventStreams.groupBy(batches, 60_000, 60_000, true, Long.MAX_VALUE).rows().size()
            - EventStreams.rows(session.table(dir.resolve("out").toString())).size());
  }
}
