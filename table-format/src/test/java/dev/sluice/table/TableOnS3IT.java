package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.ConcurrentAppendException;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.testing.S3ProxyServer;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The table format on a real S3 API (S3Proxy in-process): commits by If-None-Match, conflicts, MERGE, CDF. */
class TableOnS3IT {
  static S3ProxyServer s3;

  @BeforeAll
  static void start() {
    s3 = S3ProxyServer.start();
  }

  @AfterAll
  static void stop() {
    s3.close();
  }

  @Test
  void eightThreadsAppendExactlyOnce() throws Exception {
    TableConcurrencyTest.eightThreadsAppend(s3.newStore("concurrent"), 4);
  }

  @Test
  void writeMergeDeleteAndReadBackOnS3() {
    Table table = Table.forPath(s3.newStore("wh"), "silver/orders");
    table.create(Orders.SCHEMA).enableChangeDataFeed().commit();
    table.newAppend().rows(Orders.range(0, 20)).commit();
    table.newMerge().source(Orders.SCHEMA, List.of(Orders.order(3, "paid", 9, 60), Orders.order(30, "open", 1, 0)))
        .on("id").whenMatchedUpdate().whenNotMatchedInsert().commit();
    table.newDelete().where(Predicate.eq("id", "o000004")).commit();
    List<Row> rows = TableWriteTest.rows(table);
    assertThat(rows).hasSize(20);
    assertThat(rows.stream().filter(r -> r.get(0).equals("o000003")).map(r -> r.get(4)).collect(Collectors.toList()))
        .containsExactly("paid");
    assertThat(table.changes(2, 3).rows().toList()).hasSize(4);
    assertThat(table.snapshotAt(1).scan().build().rows().toList()).hasSize(20);
  }

  @Test
  void concurrentMergeOnS3FailsWithTheRightException() {
    ObjectStore raw = s3.newStore("merge-race");
    HookedObjectStore hooked = new HookedObjectStore(raw);
    Table table = Table.forPath(hooked, "t");
    table.create(Orders.SCHEMA).commit();
    table.newAppend().rows(Orders.range(0, 10)).commit();
    Table other = Table.forPath(raw, "t");
    hooked.beforeNextCommit(key -> other.newMerge().source(Orders.SCHEMA, List.of(Orders.order(1, "paid", 1, 5)))
        .on("id").whenMatchedUpdate().commit());
    assertThatThrownBy(() -> table.newMerge().source(Orders.SCHEMA, List.of(Orders.order(2, "paid", 1, 5)))
        .on("id").whenMatchedUpdate().retries(0).commit())
        .isInstanceOf(ConcurrentAppendException.class).hasMessageContaining("version 2");
  }
}
