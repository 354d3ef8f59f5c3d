package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.table.data.Row;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A join side's {@code numRowsTotal} counts the rows it buffers, as Spark's does, not the join keys. */
class StreamStreamJoinStateRowsTest {
  private static final Instant T0 = Instant.parse("2024-03-01T00:00:00Z");

  @TempDir
  Path dir;
  private final SluiceSession session = SluiceSession.create();

  @AfterEach
  void close() {
    session.close();
    MemoryStream.remove("rows-imp");
    MemoryStream.remove("rows-click");
  }

  private Map<String, Long> run() {
    StreamFrame imps = session.readStream().format("memory").option("name", "rows-imp").load()
        .withWatermark("imp_ts", "30 seconds").alias("imp");
    StreamFrame clicks = session.readStream().format("memory").option("name", "rows-click").load()
        .withWatermark("click_ts", "30 seconds").alias("clicks");
    StreamingQuery q = imps.join(clicks, "imp.ad = clicks.click_ad AND clicks.click_ts BETWEEN imp.imp_ts AND"
            + " imp.imp_ts + INTERVAL 1 MINUTE", "inner")
        .writeStream().queryName("rows").trigger(Trigger.availableNow())
        .option("checkpointLocation", dir.resolve("checkpoint").toString())
        .toTable(dir.resolve("out").toString());
    q.awaitTermination();
    return q.lastProgress().orElseThrow().stateOperators().stream().collect(Collectors.toMap(
        QueryProgress.StateOperatorProgress::operatorName, QueryProgress.StateOperatorProgress::numRowsTotal));
  }

  private static Row row(String ad, int second, long id) {
    return Row.of(ad, T0.plusSeconds(second), id);
  }

  @Test
  void countsBufferedRowsAcrossBatchesAndRestarts() {
    MemoryStream imp = MemoryStream.named("rows-imp", StreamStreamJoinHarness.IMPRESSIONS);
    MemoryStream click = MemoryStream.named("rows-click", StreamStreamJoinHarness.CLICKS);
    imp.addData(List.of(row("a", 1, 1), row("a", 2, 2), row("a", 3, 3)));
    click.addData(List.of(row("b", 1, 10), row("b", 2, 11)));

    assertThat(run()).containsEntry("symmetricHashJoin(left)", 3L).containsEntry("symmetricHashJoin(right)", 2L);

    // A restart counts the committed state once, then follows it: a new row of a held key, a match that buffers.
    imp.addData(List.of(row("a", 4, 4)));
    click.addData(List.of(row("a", 5, 12)));
    assertThat(run()).containsEntry("symmetricHashJoin(left)", 4L).containsEntry("symmetricHashJoin(right)", 3L);

    // The watermark passing every bound evicts them all but the new rows far ahead.
    imp.addData(List.of(row("c", 3600, 5)));
    click.addData(List.of(row("d", 3600, 13)));
    assertThat(run()).containsEntry("symmetricHashJoin(left)", 1L).containsEntry("symmetricHashJoin(right)", 1L);
  }
}
