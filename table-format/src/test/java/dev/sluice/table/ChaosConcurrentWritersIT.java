package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.ConcurrentModificationException;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.storage.S3ObjectStore;
import dev.sluice.table.testing.S3ProxyServer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * 8 writers on one table over S3Proxy, 4 appending and 4 MERGE-ing (each MERGE bumps a counter row its writer owns,
 * so a lost update shows): no commit is lost, versions are contiguous, and the only failures are typed conflicts
 * (which the writer then retries). {@code -Pchaos} raises {@code sluice.chaos.writerOps} per writer.
 */
class ChaosConcurrentWritersIT {
  static final int OPS = Integer.getInteger("sluice.chaos.writerOps", 8);
  static final int WRITERS = 8;

  @Test
  void eightWritersLoseNothing() throws Exception {
    try (S3ProxyServer s3 = S3ProxyServer.start(); S3ObjectStore store = s3.newStore("chaos-writers")) {
      Table table = Table.forPath(store, "t");
      table.create(Orders.SCHEMA).commit();
      List<Row> counters = new ArrayList<>();
      for (int w = 0; w < WRITERS / 2; w++) {
        counters.add(Orders.order(900_000 + w, "count", 0, 0));
      }
      table.newAppend().rows(counters).commit();

      Map<String, AtomicLong> conflicts = new ConcurrentHashMap<>();
      List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());
      List<Long> versions = Collections.synchronizedList(new ArrayList<>());
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
      List<Future<Integer>> done = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        done.add(pool.submit(() -> {
          Table mine = Table.forPath(store, "t");
          int successes = 0;
          int attempts = 0;
          while (successes < OPS && attempts++ < OPS * 50) {
            try {
              CommitResult r;
              if (writer % 2 == 0) {
                int base = (writer * OPS + successes) * 3;
                r = mine.newAppend().rows(Orders.range(base, base + 3)).commit();
              } else {
                Row counter = Orders.order(900_000 + writer / 2, "count", successes + 1, successes + 1);
                r = mine.newMerge().source(Orders.SCHEMA, List.of(counter)).on("id").whenMatchedUpdate().commit();
              }
              versions.add(r.version());
              successes++;
            } catch (ConcurrentModificationException e) {
              conflicts.computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicLong()).incrementAndGet();
            } catch (RuntimeException e) {
              unexpected.add(e);
              return successes;
            }
          }
          return successes;
        }));
      }
      List<Integer> successes = new ArrayList<>();
      for (Future<Integer> f : done) {
        successes.add(f.get());
      }
      pool.shutdown();
      assertThat(unexpected).as("only typed conflicts").isEmpty();
      assertThat(successes).as("every writer finished its work").containsOnly(OPS);

      long commits = (long) WRITERS * OPS;
      assertThat(versions).doesNotHaveDuplicates().hasSize((int) commits);
      assertThat(versions.stream().sorted().toList()).as("contiguous, none lost")
          .containsExactlyElementsOf(LongStream.rangeClosed(2, commits + 1).boxed().toList());
      List<Long> logged = new ArrayList<>();
      try (var it = store.list("t/_delta_log/")) {
        while (it.hasNext()) {
          ObjectStatus o = it.next();
          if (o.name().matches("\\d{20}\\.json")) {
            logged.add(Long.parseLong(o.name().substring(0, 20)));
          }
        }
      }
      assertThat(logged).containsExactlyElementsOf(LongStream.rangeClosed(0, commits + 1).boxed().toList());

      Table fresh = Table.forPath(store, "t");
      Map<String, Double> rowsById = new TreeMap<>();
      for (Row r : TableWriteTest.rows(fresh)) {
        assertThat(rowsById.put((String) r.get(0), (Double) r.get(3))).as("one row per id").isNull();
      }
      assertThat(rowsById).hasSize(WRITERS / 2 * OPS * 3 + WRITERS / 2);
      for (int w = 0; w < WRITERS / 2; w++) {
        assertThat(rowsById.get(String.format("o%06d", 900_000 + w))).as("counter of merge writer %d", w)
            .isEqualTo((double) OPS);
      }
      System.out.printf("chaos concurrent writers: %d writers x %d commits = %d commits, versions 2..%d contiguous,"
          + " conflicts retried %s, %d rows checked%n", WRITERS, OPS, commits, commits + 1, conflicts, rowsById.size());
    }
  }
}
