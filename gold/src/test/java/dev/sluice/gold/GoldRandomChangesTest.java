package dev.sluice.gold;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.Row;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;

/** Random inserts, updates, deletes and tier changes: after every run gold equals the batch computation. */
class GoldRandomChangesTest {
  @TempDir
  Path dir;

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(longs = {42, 7, 2026})
  void goldEqualsTheBatchComputationAfterEveryRun(long seed) {
    String aggregate = """
        group_by: [tier]
        window: {column: event_time, size: 2 minutes, slide: 1 minute}
        measures: ["count(*) AS orders", "sum(amount) AS revenue", "min(amount) AS min_amount",
                   "max(amount) AS max_amount", "avg(amount) AS avg_amount"]
        """;
    Random random = new Random(seed);
    try (GoldFixture f = new GoldFixture(dir.resolve("seed-" + seed), aggregate)) {
      List<Long> live = new ArrayList<>();
      long nextId = 1;
      for (int run = 0; run < 12; run++) {
        int ops = 1 + random.nextInt(4);
        for (int i = 0; i < ops; i++) {
          int kind = random.nextInt(10);
          if (kind < 4 || live.isEmpty()) {
            List<Row> rows = new ArrayList<>();
            for (int n = 1 + random.nextInt(3); n > 0; n--) {
              rows.add(randomOrder(random, nextId));
              live.add(nextId++);
            }
            f.insert(rows.toArray(Row[]::new));
          } else if (kind < 7) {
            f.upsert(randomOrder(random, live.get(random.nextInt(live.size()))));
          } else if (kind < 9) {
            f.delete(live.remove(random.nextInt(live.size())));
          } else {
            f.customer("c" + random.nextInt(3), List.of("gold", "silver", "bronze").get(random.nextInt(3)));
          }
        }
        f.run();
        assertThat(f.goldResult()).as("run %d", run).isEqualTo(Oracle.compute(f.rows(f.silver), f.rows(f.customers),
            Duration.ofMinutes(2), Duration.ofMinutes(1)));
      }
    }
  }

  private static Row randomOrder(Random random, long id) {
    String time = "10:%02d:%02d".formatted(random.nextInt(8), random.nextInt(60));
    String amount = (1 + random.nextInt(500)) + "." + random.nextInt(10) + "0";
    String status = random.nextInt(6) == 0 ? "cancelled" : "paid";
    return GoldFixture.order(id, "c" + random.nextInt(4), amount, status, time);
  }
}
