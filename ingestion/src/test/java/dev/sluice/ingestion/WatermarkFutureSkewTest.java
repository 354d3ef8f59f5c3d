package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Option {@code maxFutureSkew}: an event time further than that after the batch's timestamp does not move the
 * watermark (it would make every later row late), is counted in progress and passes on.
 */
class WatermarkFutureSkewTest {
  static final StructType SCHEMA = StructType.of(StructField.of("id", PrimitiveType.STRING),
      StructField.of("ts", PrimitiveType.TIMESTAMP));
  static final Instant NOW = Instant.parse("2024-01-01T10:00:00Z");

  @TempDir Path dir;
  private final SluiceSession session = SluiceSession.builder().clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();

  @AfterEach
  void close() {
    session.close();
  }

  private void land(int file, String... lines) throws IOException {
    Path landing = Files.createDirectories(dir.resolve("landing"));
    Path f = Files.writeString(landing.resolve("e-" + file + ".json"), String.join("\n", lines) + "\n");
    f.toFile().setLastModified(NOW.toEpochMilli() - 3_600_000L + file * 1000L);
  }

  private StreamingQuery run(Map<String, String> options) {
    DataStreamWriter writer = session.readStream().format("json").schema(SCHEMA).option("maxFilesPerTrigger", "1")
        .load(dir.resolve("landing").toString())
        .withWatermark("ts", "10 minutes").dropDuplicatesWithinWatermark("id")
        .writeStream().format("memory").queryName("events").trigger(Trigger.availableNow())
        .option("checkpointLocation", dir.resolve("ck").toString());
    options.forEach(writer::option);
    StreamingQuery q = writer.start();
    q.awaitTermination();
    return q;
  }

  private List<String> ids() {
    return session.memoryTable("events").stream().map(r -> (String) r.get(0)).sorted().toList();
  }

  @Test
  void anEventTimeFarAheadOfTheBatchTimeDoesNotMoveTheWatermark() throws IOException {
    land(0, "{\"id\":\"a\",\"ts\":\"2024-01-01T09:30:00Z\"}", "{\"id\":\"b\",\"ts\":\"2024-01-01T09:31:00Z\"}",
        "{\"id\":\"wild\",\"ts\":\"2030-01-01T00:00:00Z\"}");
    land(1, "{\"id\":\"c\",\"ts\":\"2024-01-01T09:40:00Z\"}", "{\"id\":\"d\",\"ts\":\"2024-01-01T09:41:00Z\"}");

    StreamingQuery q = run(Map.of());

    assertThat(ids()).containsExactly("a", "b", "c", "d", "wild");
    List<QueryProgress> progress = q.recentProgress();
    assertThat(progress.get(0).eventTime()).containsEntry("futureRows", "1").containsEntry("max",
        "2024-01-01T09:31:00Z");
    assertThat(progress.get(1).eventTime()).containsEntry("watermark", "2024-01-01T09:21:00Z")
        .doesNotContainKey("futureRows");
    assertThat(progress.get(1).stateOperators().get(0).numRowsDroppedByWatermark()).isZero();
  }

  @Test
  void theSkewIsAnOptionAndWithinItEventTimesCount() throws IOException {
    land(0, "{\"id\":\"a\",\"ts\":\"2024-01-01T09:30:00Z\"}", "{\"id\":\"soon\",\"ts\":\"2024-01-01T10:30:00Z\"}");
    land(1, "{\"id\":\"c\",\"ts\":\"2024-01-01T09:40:00Z\"}");

    StreamingQuery q = run(Map.of("maxFutureSkew", "2 hours"));

    assertThat(q.recentProgress().get(0).eventTime()).containsEntry("max", "2024-01-01T10:30:00Z")
        .doesNotContainKey("futureRows");
    // within the skew, a time ahead of the clock is real: it moves the watermark, and c is late
    assertThat(ids()).containsExactly("a", "soon");
  }

  @Test
  void aBadSkewIsRefusedByName() {
    assertThatThrownBy(() -> session.readStream().format("json").schema(SCHEMA).load(dir.toString())
        .writeStream().format("memory").queryName("x").option("maxFutureSkew", "soon").start())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot read option maxFutureSkew 'soon': write a number and a unit, e.g. '500 ms', '10 seconds',"
            + " '5 minutes', '1 hour', '7 days'");
  }
}
