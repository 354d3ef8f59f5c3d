package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stream-static joins through the public API: refreshed dimension, and its version in progress and commits. */
class StreamStaticJoinTest {
  static final StructType CUSTOMERS = StructType.of(
      StructField.of("customer_id", PrimitiveType.STRING), StructField.of("tier", PrimitiveType.STRING));
  static final StructType ORDERS = StructType.of(
      StructField.of("order_id", PrimitiveType.LONG), StructField.of("customer_id", PrimitiveType.STRING));

  @TempDir Path dir;
  SluiceSession session = SluiceSession.create();

  @AfterEach
  void tearDown() {
    session.close();
    MemoryStream.remove("orders-join");
  }

  @Test
  void everyBatchSeesTheLatestDimensionAndRecordsItsVersion() {
    Table customers = session.table(dir.resolve("customers").toString());
    customers.create(CUSTOMERS).commit();
    customers.newAppend().rows(List.of(Row.of("c1", "standard"))).commit();
    MemoryStream orders = MemoryStream.named("orders-join", ORDERS);
    StreamingQuery q = session.readStream().format("memory").option("name", "orders-join").load()
        .leftJoin(session.staticTable(dir.resolve("customers").toString()), "customer_id")
        .writeStream().queryName("joined").toTable(dir.resolve("joined").toString());
    orders.addData(Row.of(1L, "c1"), Row.of(2L, "c2"));
    q.processAllAvailable();
    customers.newAppend().rows(List.of(Row.of("c2", "premium"))).commit();
    orders.addData(Row.of(3L, "c2"));
    q.processAllAvailable();
    q.stop();

    Table joined = session.table(dir.resolve("joined").toString());
    List<Row> rows = joined.latestSnapshot().scan().select("order_id", "tier").build().rows().toList();
    assertThat(rows).containsExactlyInAnyOrder(Row.of(1L, "standard"), Row.of(2L, null), Row.of(3L, "premium"));
    List<QueryProgress> progress = q.recentProgress();
    assertThat(progress.get(0).observedMetrics()).containsEntry("staticVersion.customers", 1L);
    assertThat(progress.get(1).observedMetrics()).containsEntry("staticVersion.customers", 2L);
    assertThat(joined.history(1).get(0).operationMetrics()).containsEntry("staticVersion.customers", "2");
  }
}
