package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.storage.ForwardingObjectStore;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A filtered scan of a large file reads only the pages whose page index may hold a match, and so does a MERGE's
 * lookup of its keys: a few keys in a file of millions of rows no longer cost a read of the file's key columns.
 * Whatever the filter, the rows a scan returns are exactly those a full read would keep.
 */
class PageSkippingTest {
  // Two files of 100,000 rows (an append splits its rows over files), five pages per column each (parquet starts a
  // page at 20,000 rows at the latest).
  private static final int ROWS = 200_000;
  @TempDir Path dir;
  CountingStore store;
  Table table;

  /** Counts the bytes read from Parquet data files. */
  static final class CountingStore extends ForwardingObjectStore {
    final AtomicLong dataBytes = new AtomicLong();

    CountingStore(ObjectStore delegate) {
      super(delegate);
    }

    @Override
    public byte[] readRange(String key, long offset, int length) {
      byte[] out = super.readRange(key, offset, length);
      if (key.endsWith(".parquet") && !key.contains("_delta_log")) {
        dataBytes.addAndGet(out.length);
      }
      return out;
    }

    @Override
    public byte[] read(String key) {
      byte[] out = super.read(key);
      if (key.endsWith(".parquet") && !key.contains("_delta_log")) {
        dataBytes.addAndGet(out.length);
      }
      return out;
    }

    long reset() {
      return dataBytes.getAndSet(0);
    }
  }

  @BeforeEach
  void setUp() {
    store = new CountingStore(new LocalObjectStore(dir));
    table = Table.forPath(store, "t");
    table.create(Orders.SCHEMA).property("delta.enableDeletionVectors", "true").commit();
    table.newAppend().rows(Orders.range(0, ROWS)).commit();
    assertThat(table.latestSnapshot().files()).hasSize(2);
  }

  @Test
  void aKeyedScanReadsOnlyThePagesThatMayHoldItsKeys() {
    Predicate keys = Predicate.in("id", List.of("o150003", "o150007"));
    List<DataFile> candidates = table.latestSnapshot().scan().filter(keys).build().files();
    store.reset();
    List<Row> found = rows(keys);
    long keyed = store.reset();

    assertThat(found).extracting(r -> r.get(0)).containsExactly("o150003", "o150007");
    // File stats keep one file; of it only the page of each column holding rows 40,000 to 59,999 is read.
    assertThat(candidates).hasSize(1);
    assertThat(keyed).isPositive().isLessThan(candidates.get(0).size() / 3);
  }

  @Test
  void aScanFindsExactlyTheRowsAFullReadKeepsWhateverItsFilter() {
    List<Row> all = rows(Predicate.alwaysTrue());
    List<Predicate> filters = List.of(
        Predicate.in("id", List.of("o000000", "o099999", "o100000", "o199999", "o200000", "x")),
        Predicate.eq("id", "o123456"),
        Predicate.and(Predicate.ge("id", "o050000"), Predicate.lt("id", "o050010")),
        Predicate.ge("ts", Orders.T0.plusSeconds(ROWS - 3)),
        Predicate.and(Predicate.gt("ts", Orders.T0.plusSeconds(70_000)), Predicate.le("ts", Orders.T0.plusSeconds(70_002))),
        Predicate.or(Predicate.eq("id", "o000005"), Predicate.lt("amount", 3.0)),
        Predicate.or(Predicate.eq("id", "o000005"), Predicate.eq("id", "o180000")),
        Predicate.and(Predicate.eq("id", "o060000"), Predicate.eq("status", "open")),
        Predicate.not(Predicate.in("id", List.of("o000001"))),
        Predicate.isNull("id"),
        Predicate.eq("id", "z"));
    for (Predicate filter : filters) {
      List<Row> expected = new ArrayList<>();
      var bound = filter.bind(Orders.SCHEMA);
      for (Row r : all) {
        if (bound.test(r)) {
          expected.add(r);
        }
      }
      assertThat(rows(filter)).as(filter.toString()).containsExactlyElementsOf(expected);
      assertThat(locatedIds(filter)).as(filter.toString())
          .containsExactlyElementsOf(expected.stream().map(r -> (String) r.get(0)).toList());
    }
  }

  @Test
  void rowsADeletionVectorDeletesStayDeletedAndRowIndexesStayTrue() {
    table.newDelete().where(Predicate.eq("id", "o150003")).commit();

    List<LocatedRow> found = new ArrayList<>();
    try (CloseableIterator<LocatedRow> it = table.latestSnapshot().scan().select("id")
        .filter(Predicate.in("id", List.of("o150003", "o150004", "o190001"))).build().locatedRows()) {
      it.forEachRemaining(found::add);
    }

    assertThat(found).extracting(r -> r.row().get(0)).containsExactly("o150004", "o190001");
    assertThat(found).extracting(LocatedRow::rowIndex).containsExactly(50_004L, 90_001L);
  }

  @Test
  void aMergeOfAFewKeysReadsOnlyTheirPagesAndChangesExactlyThem() {
    long fileSize = table.latestSnapshot().scan().filter(Predicate.eq("id", "o150003")).build().files().get(0).size();
    store.reset();
    CommitResult r = table.newMerge()
        .source(Orders.SCHEMA, List.of(Orders.order(150_003, "paid", 1, 5), Orders.order(ROWS + 7, "new", 2, 5)))
        .on("id").whenMatchedUpdate().whenNotMatchedInsert().commit();
    long read = store.reset();

    assertThat(r.metric("numTargetRowsUpdated")).isEqualTo(1);
    assertThat(r.metric("numTargetRowsInserted")).isEqualTo(1);
    assertThat(read).isPositive().isLessThan(fileSize / 3);
    List<Row> after = rows(Predicate.alwaysTrue());
    assertThat(after).hasSize(ROWS + 1);
    assertThat(after.stream().map(row -> (String) row.get(0)).distinct().count()).isEqualTo(ROWS + 1);
    assertThat(rows(Predicate.in("id", List.of("o150003", "o200007")))).extracting(row -> row.get(4))
        .containsExactlyInAnyOrder("paid", "new");
    assertThat(table.latestSnapshot().numRecords()).hasValue(ROWS + 1);
  }

  private List<Row> rows(Predicate filter) {
    List<Row> out = new ArrayList<>();
    try (CloseableIterator<Row> it = table.latestSnapshot().scan().select(Orders.SCHEMA.fieldNames()).filter(filter)
        .build().rows()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  private List<String> locatedIds(Predicate filter) {
    List<String> out = new ArrayList<>();
    try (CloseableIterator<LocatedRow> it = table.latestSnapshot().scan().select("id").filter(filter).build()
        .locatedRows()) {
      it.forEachRemaining(r -> out.add((String) r.row().get(0)));
    }
    return out;
  }
}
