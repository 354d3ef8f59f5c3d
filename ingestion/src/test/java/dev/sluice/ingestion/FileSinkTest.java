package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import dev.sluice.ingestion.internal.sink.SinkInterceptor;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The json, csv and parquet file sinks: output read back through the {@code _spark_metadata} log, exactly once
 * after a crash at every step (files a crashed attempt left behind are not output), Spark's log format and
 * compaction, partition folders, and the refusal of update and complete modes.
 */
class FileSinkTest {
  @TempDir Path dir;

  @AfterEach
  void clear() {
    BatchInterceptor.REGISTRY.clear();
    SinkInterceptor.REGISTRY.clear();
  }

  private StreamingQuery run(SluiceSession session, String format, Map<String, String> options) {
    DataStreamWriter w = session.readStream().format("json").schema(Landing.SCHEMA).option("maxFilesPerTrigger", "2")
        .load(dir.resolve("landing").toString())
        .writeStream().format(format).queryName("q").trigger(Trigger.availableNow());
    options.forEach(w::option);
    return w.start(dir.resolve("out").toString());
  }

  private List<Long> ids(SluiceSession session, String format, Map<String, String> options) {
    return session.readFiles(dir.resolve("out").toString(), format, Landing.SCHEMA, options).stream()
        .map(r -> (Long) r.get(0)).sorted().toList();
  }

  private long dataFilesOnDisk() throws IOException {
    try (Stream<Path> files = Files.walk(dir.resolve("out"))) {
      return files.filter(p -> p.getFileName().toString().startsWith("part-")).count();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"json", "csv", "parquet"})
  void writesEveryRowOnceAndReadsItBackThroughTheLog(String format) {
    Landing.write(dir.resolve("landing"), 0, 6, 10);
    try (SluiceSession session = SluiceSession.create()) {
      StreamingQuery q = run(session, format, Map.of());
      q.awaitTermination();
      assertThat(q.lastProgress().orElseThrow().sink().description()).startsWith("FileSink[" + format);
      List<Row> rows = session.readFiles(dir.resolve("out").toString(), format, Landing.SCHEMA, Map.of());
      assertThat(rows).hasSize(60);
      Row first = rows.stream().filter(r -> (Long) r.get(0) == 5L).findFirst().orElseThrow();
      assertThat(first.toArray()).containsExactly(5L, "test", 7.5);
      assertThat(ids(session, format, Map.of())).containsExactlyElementsOf(Landing.range(0, 60));
    }
    assertThat(dir.resolve("out/_spark_metadata/0")).exists();
    assertThat(dir.resolve("out/_spark_metadata/2")).exists();
  }

  @ParameterizedTest
  @ValueSource(strings = {"AFTER_OFFSETS", "BEFORE_SINK", "DATA_WRITTEN", "AFTER_SINK", "AFTER_COMMIT"})
  void exactlyOnceAfterACrashAtEachStep(String crashAt) throws IOException {
    Landing.write(dir.resolve("landing"), 0, 6, 10);
    AtomicBoolean crashed = new AtomicBoolean();
    if (crashAt.equals("DATA_WRITTEN")) {
      SinkInterceptor.REGISTRY.put("q", (step, batchId) -> {
        if (batchId == 1 && crashed.compareAndSet(false, true)) {
          throw new IllegalStateException("injected crash at " + step + " of batch " + batchId);
        }
      });
    } else {
      BatchInterceptor.REGISTRY.put("q", (step, batchId) -> {
        if (step.name().equals(crashAt) && batchId == 1 && crashed.compareAndSet(false, true)) {
          throw new IllegalStateException("injected crash at " + step + " of batch " + batchId);
        }
      });
    }
    try (SluiceSession session = SluiceSession.create()) {
      assertThatThrownBy(run(session, "json", Map.of())::awaitTermination).isInstanceOf(StreamingQueryException.class)
          .hasMessageContaining("injected crash at " + crashAt);
      StreamingQuery second = run(session, "json", Map.of());
      second.awaitTermination();
      assertThat(ids(session, "json", Map.of())).containsExactlyElementsOf(Landing.range(0, 60));
      if (crashAt.equals("AFTER_SINK")) {
        assertThat(second.recentProgress().get(0).sink().alreadyCommitted()).isTrue();
      }
    }
    // the crashed attempt's file of batch 1 is on disk, but not in the log: not output
    assertThat(dataFilesOnDisk()).isEqualTo(crashAt.equals("DATA_WRITTEN") ? 4 : 3);
  }

  @Test
  void aFileTornByAFailedWriteIsNeverVisible() {
    Landing.write(dir.resolve("landing"), 0, 6, 10);
    AtomicInteger files = new AtomicInteger();
    try (SluiceSession session = SluiceSession.builder()
        .wrapStores(s -> new ExactlyOnceTest.FailingDataFileStore(s, () -> files.incrementAndGet() == 2)).build()) {
      assertThatThrownBy(run(session, "json", Map.of())::awaitTermination)
          .isInstanceOf(StreamingQueryException.class).hasMessageContaining("injected");
      assertThat(ids(session, "json", Map.of())).containsExactlyElementsOf(Landing.range(0, 20));
      run(session, "json", Map.of()).awaitTermination();
      assertThat(ids(session, "json", Map.of())).containsExactlyElementsOf(Landing.range(0, 60));
    }
  }

  @Test
  void theLogIsSparksFormatAndCompactsEveryTenBatches() throws IOException {
    Landing.write(dir.resolve("landing"), 0, 12, 5);
    try (SluiceSession session = SluiceSession.create()) {
      session.readStream().format("json").schema(Landing.SCHEMA).option("maxFilesPerTrigger", "1")
          .load(dir.resolve("landing").toString()).writeStream().format("json").trigger(Trigger.availableNow())
          .start(dir.resolve("out").toString()).awaitTermination();
      assertThat(ids(session, "json", Map.of())).containsExactlyElementsOf(Landing.range(0, 60));
    }
    Path log = dir.resolve("out/_spark_metadata");
    assertThat(log.resolve("9.compact")).exists();
    assertThat(log.resolve("9")).doesNotExist();
    assertThat(log.resolve("10")).exists();
    List<String> compact = Files.readAllLines(log.resolve("9.compact"));
    assertThat(compact.get(0)).isEqualTo("v1");
    assertThat(compact).hasSize(11);
    assertThat(compact.get(1)).matches("\\{\"path\":\"file:/.*/out/part-00000-[0-9a-f-]{36}\\.c000\\.json\",\"size\":\\d+,"
        + "\"isDir\":false,\"modificationTime\":\\d+,\"blockReplication\":1,\"blockSize\":33554432,\"action\":\"add\"}");
  }

  @Test
  void readsALogWrittenBySpark() throws IOException {
    Path out = Files.createDirectories(dir.resolve("out/_spark_metadata"));
    Files.writeString(out.getParent().resolve("part-00000-a.c000.json"), "{\"id\":1,\"status\":\"open\"}\n");
    Files.writeString(out.getParent().resolve("part-00000-b.c000.json"), "{\"id\":2,\"status\":\"open\"}\n");
    // Spark writes file:/ URIs without an authority; the second file is an uncommitted attempt
    Files.writeString(out.resolve("0"), "v1\n{\"path\":\"file:" + out.getParent().resolve("part-00000-a.c000.json")
        + "\",\"size\":26,\"isDir\":false,\"modificationTime\":1,\"blockReplication\":1,\"blockSize\":33554432,"
        + "\"action\":\"add\"}");
    try (SluiceSession session = SluiceSession.create()) {
      assertThat(ids(session, "json", Map.of())).containsExactly(1L);
    }
  }

  @Test
  void csvOptionsAndPartitionFoldersRoundTrip() {
    Landing.write(dir.resolve("landing"), 0, 2, 10);
    Map<String, String> csv = Map.of("header", "true", "sep", ";");
    try (SluiceSession session = SluiceSession.create()) {
      DataStreamWriter w = session.readStream().format("json").schema(Landing.SCHEMA)
          .load(dir.resolve("landing").toString()).writeStream().format("csv").partitionBy("status")
          .trigger(Trigger.availableNow());
      csv.forEach(w::option);
      w.start(dir.resolve("out").toString()).awaitTermination();
      List<Row> rows = session.readFiles(dir.resolve("out").toString(), "csv", Landing.SCHEMA, csv);
      assertThat(rows).hasSize(20).allMatch(r -> r.get(1).equals((Long) r.get(0) % 5 == 0 ? "test" : "open"));
    }
    assertThat(dir.resolve("out/status=test")).isDirectory();
    assertThat(dir.resolve("out/status=open")).isDirectory();
  }

  @Test
  void theStreamingFileSourceReadsOnlyLoggedFiles() throws IOException {
    Landing.write(dir.resolve("landing"), 0, 2, 10);
    try (SluiceSession session = SluiceSession.create()) {
      run(session, "json", Map.of()).awaitTermination();
      Files.writeString(dir.resolve("out/part-99999-uncommitted.c000.json"), "{\"id\":999}\n");
      session.readStream().format("json").schema(Landing.SCHEMA).load(dir.resolve("out").toString())
          .writeStream().format("memory").queryName("copy").trigger(Trigger.availableNow()).start()
          .awaitTermination();
      assertThat(session.memoryTable("copy").stream().map(r -> (Long) r.get(0)).sorted().toList())
          .containsExactlyElementsOf(Landing.range(0, 20));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"update", "complete"})
  void updateAndCompleteModesAreRefusedWithSparksMessageAndTheFix(String mode) {
    Landing.write(dir.resolve("landing"), 0, 1, 10);
    String name = mode.equals("update") ? "Update" : "Complete";
    try (SluiceSession session = SluiceSession.create()) {
      DataStreamWriter w = session.readStream().format("json").schema(Landing.SCHEMA)
          .load(dir.resolve("landing").toString()).groupBy("status").agg("count(*) AS n").writeStream().format("parquet")
          .outputMode(mode);
      assertThatThrownBy(() -> w.start(dir.resolve("out").toString())).isInstanceOf(AnalysisException.class)
          .hasMessageStartingWith("Data source parquet does not support " + name + " output mode.")
          .hasMessageContaining("format(\"delta\")").hasMessageContaining("foreachBatch");
    }
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void badOptionsAreRefusedAtStart() {
    Landing.write(dir.resolve("landing"), 0, 1, 10);
    try (SluiceSession session = SluiceSession.create()) {
      StreamFrame frame = session.readStream().format("json").schema(Landing.SCHEMA)
          .load(dir.resolve("landing").toString());
      assertThatThrownBy(() -> frame.writeStream().format("json").option("compression", "lzo")
          .start(dir.resolve("out").toString())).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Option compression must be one of [gzip, none, uncompressed], got 'lzo'");
      assertThatThrownBy(() -> frame.writeStream().format("csv").start()).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("The csv sink needs option path");
      assertThatThrownBy(() -> frame.writeStream().format("json").option("colour", "red"))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Unknown writeStream option 'colour'");
      assertThatThrownBy(() -> frame.writeStream().option("header", "true").toTable(dir.resolve("t").toString()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Option 'header' is not an option of the delta sink");
    }
  }

  @Test
  void gzipJsonAndZstdParquetAreReadBack() {
    Landing.write(dir.resolve("landing"), 0, 2, 10);
    try (SluiceSession session = SluiceSession.create()) {
      run(session, "json", Map.of("compression", "gzip")).awaitTermination();
      assertThat(ids(session, "json", Map.of())).containsExactlyElementsOf(Landing.range(0, 20));
    }
    assertThat(dir.resolve("out").toFile().list()).anyMatch(n -> n.endsWith(".c000.json.gz"));
  }

  @Test
  void csvRefusesNestedColumns() {
    Landing.write(dir.resolve("landing"), 0, 1, 10);
    StructType nested = StructType.of(StructField.of("id", PrimitiveType.LONG),
        StructField.of("tags", new dev.sluice.table.types.ArrayType(PrimitiveType.STRING, true)));
    try (SluiceSession session = SluiceSession.create()) {
      StreamingQuery q = session.readStream().format("json").schema(nested).load(dir.resolve("landing").toString())
          .writeStream().format("csv").trigger(Trigger.availableNow()).start(dir.resolve("out").toString());
      assertThatThrownBy(q::awaitTermination).isInstanceOf(StreamingQueryException.class)
          .hasMessageContaining("CSV data source does not support array data type (column 'tags')");
    }
  }
}
