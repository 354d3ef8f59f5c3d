package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.EventStreams.Deduped;
import dev.sluice.ingestion.EventStreams.Event;
import dev.sluice.ingestion.EventStreams.Grouped;
import dev.sluice.ingestion.EventStreams.OracleBatch;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stateful queries over seeded random event streams (disorder, late and re-sent events, batches cut at
 * random by maxFilesPerTrigger) against plain batch computations over the events that were not late,
 * with the late ones in the late-rows table. See {@link EventStreams} for the oracle.
 */
class StatefulOracleTest {
  private static final int FILES = 14;

  @TempDir
  Path dir;
  SluiceSession session;

  @BeforeEach
  void open() {
    session = session();
  }

  /** The session of each test; {@link StatefulOracleRocksDbTest} runs every test on the RocksDB store. */
  SluiceSession session() {
    return SluiceSession.create();
  }

  @AfterEach
  void close() {
    session.close();
  }

  /** The seed's stream, landed as local files in discovery order, and the oracle's batches for a random k. */
  private List<OracleBatch> land(long seed, int[] k) {
    List<List<Event>> files = EventStreams.generate(seed, FILES, 5);
    k[0] = 1 + new Random(seed * 31).nextInt(3);
    Path landing = dir.resolve("landing");
    try {
      Files.createDirectories(landing);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long[] mtime = {1_700_000_000_000L};
    EventStreams.write(files, 0, files.size(), (name, bytes) -> {
      try {
        Path file = Files.write(landing.resolve(name), bytes);
        file.toFile().setLastModified(mtime[0] += 1000);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    List<OracleBatch> batches = EventStreams.batches(files, k[0]);
    // The oracle must exercise lateness, or it proves nothing about it.
    assertThat(batches.stream().anyMatch(b -> b.events().stream().anyMatch(e -> e.tsMs() < b.watermarkMs())))
        .as("seed %d has late events", seed).isTrue();
    return batches;
  }

  private StreamFrame stream(int k) {
    return session.readStream().format("json").schema(EventStreams.SCHEMA)
        .option("maxFilesPerTrigger", Integer.toString(k)).load(dir.resolve("landing").toString())
        .withWatermark("ts", EventStreams.DELAY);
  }

  private DataStreamWriter writer(StreamFrame frame, String mode) {
    return frame.writeStream().queryName("q").outputMode(mode).trigger(Trigger.availableNow())
        .option("lateRowsTable", dir.resolve("late").toString());
  }

  private Table table(String name) {
    return session.table(dir.resolve(name).toString());
  }

  private static Set<String> groupRows(List<Row> rows) {
    return rows.stream().map(EventStreams::groupRow).collect(Collectors.toSet());
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void tumblingWindowAppendEmitsFinalWindowsOfTheAcceptedEvents(long seed) {
    int[] k = new int[1];
    List<OracleBatch> batches = land(seed, k);
    writer(stream(k[0]).groupBy("window(ts, '1 minute')", "key").agg(EventStreams.AGGREGATES), "append")
        .toTable(dir.resolve("out").toString()).awaitTermination();

    Grouped expected = EventStreams.groupBy(batches, 60_000, 60_000, true, EventStreams.finalWatermark(batches));
    assertThat(expected.rows()).isNotEmpty();
    assertThat(groupRows(EventStreams.rows(table("out")))).containsExactlyInAnyOrderElementsOf(expected.rows());
    assertThat(EventStreams.lateRows(table("late"))).containsExactlyInAnyOrderElementsOf(expected.late());
  }

  @ParameterizedTest
  @ValueSource(longs = {4, 5, 6})
  void slidingWindowAppendCountsEventsInEveryOpenWindow(long seed) {
    int[] k = new int[1];
    List<OracleBatch> batches = land(seed, k);
    writer(stream(k[0]).groupBy("window(ts, '2 minutes', '1 minute')", "key").agg(EventStreams.AGGREGATES), "append")
        .toTable(dir.resolve("out").toString()).awaitTermination();

    Grouped expected = EventStreams.groupBy(batches, 120_000, 60_000, true, EventStreams.finalWatermark(batches));
    assertThat(groupRows(EventStreams.rows(table("out")))).containsExactlyInAnyOrderElementsOf(expected.rows());
    assertThat(EventStreams.lateRows(table("late"))).containsExactlyInAnyOrderElementsOf(expected.late());
  }

  @ParameterizedTest
  @ValueSource(longs = {7, 8})
  void updateModeMergedByGroupEqualsTheGroupByOfAcceptedEvents(long seed) {
    int[] k = new int[1];
    List<OracleBatch> batches = land(seed, k);
    writer(stream(k[0]).groupBy("window(ts, '1 minute')", "key").agg(EventStreams.AGGREGATES), "update")
        .foreachBatch(MergeIntoTable.into(table("out"), "oracle-update", "window", "key"))
        .option("checkpointLocation", dir.resolve("ck").toString()).start().awaitTermination();

    Grouped expected = EventStreams.groupBy(batches, 60_000, 60_000, true, Long.MAX_VALUE);
    assertThat(groupRows(EventStreams.rows(table("out")))).containsExactlyInAnyOrderElementsOf(expected.rows());
    assertThat(EventStreams.lateRows(table("late"))).containsExactlyInAnyOrderElementsOf(expected.late());
  }

  @ParameterizedTest
  @ValueSource(longs = {9, 10})
  void updateModeToMemoryLastUpdatePerGroupWins(long seed) {
    int[] k = new int[1];
    List<OracleBatch> batches = land(seed, k);
    writer(stream(k[0]).groupBy("window(ts, '1 minute')", "key").agg(EventStreams.AGGREGATES), "update")
        .format("memory").start().awaitTermination();

    Map<String, String> last = new LinkedHashMap<>();
    for (Row r : session.memoryTable("q")) {
      String row = EventStreams.groupRow(r);
      last.put(row.substring(0, row.indexOf('|', row.indexOf('|') + 1) + 1) + r.get(1), row);
    }
    Grouped expected = EventStreams.groupBy(batches, 60_000, 60_000, true, Long.MAX_VALUE);
    assertThat(new HashSet<>(last.values())).containsExactlyInAnyOrderElementsOf(expected.rows());
    assertThat(EventStreams.lateRows(table("late"))).containsExactlyInAnyOrderElementsOf(expected.late());
  }

  @ParameterizedTest
  @ValueSource(longs = {11, 12})
  void completeModeKeepsEveryEvent(long seed) {
    int[] k = new int[1];
    List<OracleBatch> batches = land(seed, k);
    writer(stream(k[0]).groupBy("window(ts, '1 minute')", "key").agg(EventStreams.AGGREGATES), "complete")
        .toTable(dir.resolve("out").toString()).awaitTermination();

    Grouped expected = EventStreams.groupBy(batches, 60_000, 60_000, false, Long.MAX_VALUE);
    assertThat(expected.late()).isEmpty();
    assertThat(groupRows(EventStreams.rows(table("out")))).containsExactlyInAnyOrderElementsOf(expected.rows());
    assertThat(table("late").exists()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(longs = {13, 14, 15})
  void dropDuplicatesWithinWatermarkPassesTheFirstEventOfEachLiveKey(long seed) {
    int[] k = new int[1];
    List<OracleBatch> batches = land(seed, k);
    writer(stream(k[0]).dropDuplicatesWithinWatermark("key"), "append").toTable(dir.resolve("out").toString())
        .awaitTermination();

    Deduped expected = EventStreams.dedupWithinWatermark(batches);
    assertThat(seqs(table("out"))).containsExactlyInAnyOrderElementsOf(expected.passed());
    assertThat(EventStreams.lateRows(table("late"))).containsExactlyInAnyOrderElementsOf(expected.late());
  }

  @ParameterizedTest
  @ValueSource(longs = {16, 17, 18})
  void dropDuplicatesOnKeyAndEventTimeEqualsDistinctOfTheEventsNotLate(long seed) {
    int[] k = new int[1];
    List<OracleBatch> batches = land(seed, k);
    writer(stream(k[0]).dropDuplicates("key", "ts"), "append").toTable(dir.resolve("out").toString())
        .awaitTermination();

    Deduped expected = EventStreams.dropDuplicates(batches);
    assertThat(expected.passed().size()).isLessThan(batches.stream().mapToInt(b -> b.events().size()).sum()
        - expected.late().size());
    assertThat(seqs(table("out"))).containsExactlyInAnyOrderElementsOf(expected.passed());
    assertThat(EventStreams.lateRows(table("late"))).containsExactlyInAnyOrderElementsOf(expected.late());
  }

  static List<Long> seqs(Table table) {
    return EventStreams.rows(table).stream().map(r -> (Long) r.get(0)).toList();
  }
}
