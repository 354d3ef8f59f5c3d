package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.ingestion.state.StateStoreType;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link StateReader} over the checkpoint of a dropDuplicates query, for both providers. */
class StateReaderTest {
  @TempDir
  Path dir;
  private final String stream = "reader-" + UUID.randomUUID();

  @AfterEach
  void removeStream() {
    MemoryStream.remove(stream);
  }

  private static List<String> ids(List<Row> rows, int column) {
    return rows.stream().map(r -> (String) r.get(column)).sorted().toList();
  }

  private static List<String> changes(List<Row> rows) {
    return rows.stream().map(r -> r.get(0) + ":" + r.get(1) + ":" + r.get(2)).sorted().toList();
  }

  @ParameterizedTest
  @ValueSource(strings = {"inmemory", "rocksdb"})
  void readsTheStateAfterEachBatchItsChangesAndTheOperatorMetadata(String provider) {
    MemoryStream input = MemoryStream.named(stream, StateStoreSelectionTest.EVENTS);
    String table = dir.resolve("out").toString();
    try (SluiceSession session = SluiceSession.create()) {
      StreamingQuery q = session.readStream().format("memory").option("name", stream).load()
          .dropDuplicates("id").writeStream().queryName("dedup")
          .option("stateStore", provider).option("stateStore.snapshotInterval", "2")
          .option("stateStore.localDir", dir.resolve("local").toString())
          .option("minBatchesToRetain", "3")
          .toTable(table);
      List<List<Row>> batches = List.of(List.of(Row.of("a", 1L), Row.of("b", 1L)), List.of(Row.of("a", 2L)),
          List.of(Row.of("c", 1L)), List.of(Row.of("d", 1L), Row.of("b", 3L)), List.of(Row.of("e", 1L)));
      for (List<Row> b : batches) {
        input.addData(b);
        q.processAllAvailable();
      }
      q.stop();

      StateReader reader = session.readState(table);
      List<StateReader.OperatorState> operators = reader.metadata();
      assertThat(operators).hasSize(1);
      StateReader.OperatorState op = operators.get(0);
      assertThat(op.metadata().provider()).isEqualTo(StateStoreType.of(provider, "test"));
      assertThat(op.metadata().operatorName()).isEqualTo("dedupe");
      assertThat(op.metadata().schema().keySchema().fieldNames()).containsExactly("id");
      assertThat(op.latestBatch()).contains(4L);
      assertThat(op.earliestBatch().orElseThrow()).as("older files purged by minBatchesToRetain").isPositive()
          .isLessThanOrEqualTo(2L);

      assertThat(reader.schema().fieldNames()).containsExactly("id");
      assertThat(ids(reader.rows(), 0)).containsExactly("a", "b", "c", "d", "e");
      assertThat(ids(session.readState(table).query("dedup").batch(3).rows(), 0)).containsExactly("a", "b", "c",
          "d");
      assertThat(ids(session.readState(dir.resolve("out/_checkpoints/dedup").toString()).batch(2).rows(), 0))
          .containsExactly("a", "b", "c");

      StateReader feed = session.readState(table).changes(3, 4);
      assertThat(feed.schema().fieldNames()).containsExactly("batch_id", "change_type", "id");
      assertThat(feed.schema().field(0).type()).isEqualTo(PrimitiveType.LONG);
      assertThat(changes(feed.rows())).containsExactly("3:update:d", "4:update:e");

      assertThatThrownBy(() -> session.readState(table).batch(0).rows())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("The state of batch 0 of operator 0 (dedupe) is not in ")
          .hasMessageContaining("can be read (older ones are purged by minBatchesToRetain)");
      assertThatThrownBy(() -> session.readState(table).changes(0, 1).rows())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("The changes of state version 1 are not in");
      assertThatThrownBy(() -> session.readState(table).operator(1).rows())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("has no stateful operator 1 (operators: 1;");
    }
  }
}
