package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.ingestion.state.StateStoreSettings;
import dev.sluice.ingestion.state.StateStoreType;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Choosing the state store per query, per session; the provider recorded in the checkpoint; progress metrics. */
class StateStoreSelectionTest {
  static final StructType EVENTS = StructType.empty().add("id", PrimitiveType.STRING).add("n", PrimitiveType.LONG);

  @TempDir
  Path dir;
  private final String stream = "selection-" + UUID.randomUUID();

  @AfterEach
  void removeStream() {
    MemoryStream.remove(stream);
  }

  private StreamingQuery start(SluiceSession session, String... options) {
    DataStreamWriter writer = session.readStream().format("memory").option("name", stream).load()
        .dropDuplicates("id").writeStream().queryName("q")
        .option("checkpointLocation", dir.resolve("ck").toString())
        .option("stateStore.localDir", dir.resolve("local").toString())
        .foreachBatch((batch, id) -> { });
    for (int i = 0; i < options.length; i += 2) {
      writer.option(options[i], options[i + 1]);
    }
    return writer.start();
  }

  private static QueryProgress run(StreamingQuery q, MemoryStream input, Row... rows) {
    input.addData(rows);
    q.processAllAvailable();
    return q.lastProgress().orElseThrow();
  }

  @Test
  void theProviderIsChosenPerQueryRecordedAndASwitchIsRefused() throws Exception {
    MemoryStream input = MemoryStream.named(stream, EVENTS);
    try (SluiceSession session = SluiceSession.create()) {
      StreamingQuery q = start(session, "stateStore", "rocksdb", "stateStore.rocksdb.memory", "16m");
      QueryProgress p = run(q, input, Row.of("a", 1L), Row.of("b", 2L), Row.of("a", 3L));
      q.stop();
      QueryProgress.StateOperatorProgress op = p.stateOperators().get(0);
      assertThat(op.numRowsTotal()).isEqualTo(2);
      assertThat(op.customMetrics()).containsKeys("rocksdbGetCount", "rocksdbPutCount", "rocksdbSstFileSize",
          "rocksdbMemUsage", "rocksdbBytesCopied", "rocksdbCommitCompactLatency", "rocksdbTotalBytesWritten");
      assertThat(op.customMetrics().get("rocksdbPutCount")).isEqualTo(2);
      assertThat(p.json()).contains("\"customMetrics\"", "\"rocksdbGetCount\"");
      assertThat(Files.readString(dir.resolve("ck/state/0/_metadata"))).contains("\"provider\":\"rocksdb\"",
          "\"operatorName\":\"" + op.operatorName() + "\"");

      assertThatThrownBy(() -> start(session, "stateStore", "inmemory"))
          .isInstanceOf(CheckpointIncompatibleException.class)
          .hasMessageStartingWith("The checkpoint ")
          .hasMessageEndingWith(" keeps the state of operator 0 (" + op.operatorName() + ") in the rocksdb state store, but the "
              + "query asks for inmemory: one provider can't read the other's files. Nothing was read or written. "
              + "Run the query with option stateStore=rocksdb (YAML: state_store: rocksdb), or start it with a new "
              + "checkpointLocation (it then reprocesses its sources from the start; for a Delta sink, give it a new "
              + "table or truncate it first).");

      // the session default is enough to continue
      try (SluiceSession rocks = SluiceSession.builder().stateStore("rocksdb").build()) {
        StreamingQuery again = start(rocks);
        QueryProgress next = run(again, input, Row.of("b", 4L), Row.of("c", 5L));
        again.stop();
        assertThat(next.stateOperators().get(0).numRowsTotal()).isEqualTo(3);
        assertThat(next.stateOperators().get(0).numRowsUpdated()).isEqualTo(1);
      }
    }
  }

  @Test
  void theInMemoryProviderIsTheDefaultAndFillsCustomMetrics() throws Exception {
    MemoryStream input = MemoryStream.named(stream, EVENTS);
    try (SluiceSession session = SluiceSession.create()) {
      assertThat(session.stateStore()).isEqualTo(StateStoreSettings.defaults());
      StreamingQuery q = start(session);
      run(q, input, Row.of("a", 1L));
      QueryProgress p = run(q, input, Row.of("b", 1L));
      q.stop();
      assertThat(p.stateOperators().get(0).customMetrics())
          .containsEntry("loadedMapCacheHitCount", 1L)
          .containsEntry("loadedMapCacheMissCount", 1L)
          .containsKey("stateOnCurrentVersionSizeBytes");
      assertThat(Files.readString(dir.resolve("ck/state/0/_metadata"))).contains("\"provider\":\"inmemory\"");
      assertThatThrownBy(() -> start(session, "stateStore", "rocksdb"))
          .isInstanceOf(CheckpointIncompatibleException.class)
          .hasMessageContaining("in the inmemory state store, but the query asks for rocksdb")
          .hasMessageContaining("Run the query with option stateStore=inmemory");
    }
  }

  @Test
  void aCheckpointFromBeforeTheMetadataFileIsKnownByItsFileNames() throws Exception {
    MemoryStream input = MemoryStream.named(stream, EVENTS);
    try (SluiceSession session = SluiceSession.create()) {
      StreamingQuery q = start(session);
      run(q, input, Row.of("a", 1L));
      q.stop();
      Files.delete(dir.resolve("ck/state/0/_metadata"));
      assertThatThrownBy(() -> start(session, "stateStore", "rocksdb"))
          .isInstanceOf(CheckpointIncompatibleException.class)
          .hasMessageContaining("in the inmemory state store");
      StreamingQuery again = start(session);
      assertThat(run(again, input, Row.of("a", 2L), Row.of("z", 1L)).stateOperators().get(0).numRowsTotal())
          .isEqualTo(2);
      again.stop();
      assertThat(dir.resolve("ck/state/0/_metadata")).exists();
    }
  }

  @Test
  void badOptionValuesAreRefusedNamingTheOption() {
    MemoryStream.named(stream, EVENTS);
    try (SluiceSession session = SluiceSession.create()) {
      assertThatThrownBy(() -> start(session, "stateStore", "leveldb"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Unknown state store 'leveldb' (option stateStore); use inmemory (the default: state in the JVM"
              + " heap) or rocksdb (large state, bounded heap)");
      assertThatThrownBy(() -> start(session, "stateStore", "rocksdb", "stateStore.rocksdb.memory", "lots"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Option stateStore.rocksdb.memory must be a size such as 1048576, 512k, 10m or 1g, got 'lots'");
      assertThatThrownBy(() -> start(session, "stateStore", "rocksdb", "stateStore.rocksdb.memory", "1m"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("The RocksDB state memory must be at least 4 MB, not 1048576 bytes (option "
              + "stateStore.rocksdb.memory)");
      assertThatThrownBy(() -> SluiceSession.builder().stateStore("cassandra"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Unknown state store 'cassandra' (session stateStore)");
    }
    assertThat(List.of(StateStoreType.of("in_memory", "x"), StateStoreType.of("RocksDB", "x")))
        .containsExactly(StateStoreType.IN_MEMORY, StateStoreType.ROCKSDB);
  }
}
