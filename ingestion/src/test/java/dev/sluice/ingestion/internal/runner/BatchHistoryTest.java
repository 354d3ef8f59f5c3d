package dev.sluice.ingestion.internal.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A count of a query's batches and rows covers every batch, past the 100 that recentProgress keeps. */
class BatchHistoryTest {
  private static final StructType EVENTS = StructType.of(StructField.of("id", PrimitiveType.LONG));

  @Test
  void everyBatchOfALongRunIsCounted(@TempDir Path dir) throws Exception {
    MemoryStream input = MemoryStream.named("all-progress", EVENTS);
    AtomicLong written = new AtomicLong();
    try (SluiceSession session = SluiceSession.create(); BatchHistory all = BatchHistory.of(session)) {
      StreamingQuery q = session.readStream().format("memory").option("name", "all-progress").load()
          .writeStream().queryName("all-progress").option("checkpointLocation", dir.toString())
          .foreachBatch((batch, id) -> written.addAndGet(batch.size())).start();
      for (long b = 0; b < 105; b++) {
        input.addData(List.of(Row.of(2 * b), Row.of(2 * b + 1)));
        q.processAllAvailable();
      }
      q.stop();

      List<QueryProgress> batches = all.of(q).stream().filter(p -> p.numInputRows() > 0).toList();
      assertThat(batches).hasSize(105);
      assertThat(all.inputRows(q)).isEqualTo(210).isEqualTo(written.get());
      assertThat(q.recentProgress().stream().mapToLong(QueryProgress::numInputRows).sum())
          .as("what the benches summed before").isLessThan(210);
    } finally {
      MemoryStream.remove("all-progress");
    }
  }
}
