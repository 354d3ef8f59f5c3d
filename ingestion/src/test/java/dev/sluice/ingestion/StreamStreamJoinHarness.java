package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness of the stream-stream join tests: Spark's impressions/clicks join with watermarks on both sides and a one-minute time bound, over seeded random
 * streams (disorder, late rows, re-sends) cut into random batches, one availableNow run per batch (so every batch
 * is also a restart): the Delta table written equals a plain batch join of the rows that were not late when their
 * batch ran, for each join type; crashing at each step of a batch and restarting changes nothing; state is evicted.
 */
abstract class StreamStreamJoinHarness {
  static final StructType IMPRESSIONS = StructType.of(StructField.of("ad", PrimitiveType.STRING),
      StructField.of("imp_ts", PrimitiveType.TIMESTAMP), StructField.of("imp_id", PrimitiveType.LONG));
  static final StructType CLICKS = StructType.of(StructField.of("click_ad", PrimitiveType.STRING),
      StructField.of("click_ts", PrimitiveType.TIMESTAMP), StructField.of("click_id", PrimitiveType.LONG));
  private static final long DELAY_MS = 30_000;
  private static final long BOUND_MS = 60_000;
  private static final long T0 = Instant.parse("2024-03-01T00:00:00Z").toEpochMilli();

  @TempDir
  Path dir;
  private SluiceSession session;

  @BeforeEach
  void open() {
    session = SluiceSession.create();
  }

  @AfterEach
  void close() {
    session.close();
    BatchInterceptor.REGISTRY.clear();
  }

  /** The streams to send: per batch, the impressions and clicks (in arrival order). */
  record Plan(List<List<Row>> impressions, List<List<Row>> clicks) {}

  static Plan generate(long seed, int batches) {
    Random random = new Random(seed);
    List<List<Row>> imps = new ArrayList<>();
    List<List<Row>> clicks = new ArrayList<>();
    List<Row> sentImps = new ArrayList<>();
    List<Row> sentClicks = new ArrayList<>();
    long clock = T0;
    long id = 0;
    for (int b = 0; b < batches; b++) {
      List<Row> bi = new ArrayList<>();
      List<Row> bc = new ArrayList<>();
      int n = random.nextInt(7);
      for (int i = 0; i < n; i++) {
        clock += random.nextInt(8000);
        if (!sentImps.isEmpty() && random.nextInt(10) == 0) {
          bi.add(sentImps.get(random.nextInt(sentImps.size()))); // re-sent
          continue;
        }
        long lateness = random.nextInt(12) == 0 ? 60_000 + random.nextInt(240_000) : random.nextInt(25_000);
        Row imp = Row.of("ad" + random.nextInt(4), Instant.ofEpochMilli(clock - lateness), id++);
        bi.add(imp);
        sentImps.add(imp);
      }
      int m = random.nextInt(7);
      for (int i = 0; i < m; i++) {
        if (!sentClicks.isEmpty() && random.nextInt(10) == 0) {
          bc.add(sentClicks.get(random.nextInt(sentClicks.size())));
          continue;
        }
        Row click;
        if (!sentImps.isEmpty() && random.nextInt(3) > 0) {
          Row imp = sentImps.get(sentImps.size() - 1 - random.nextInt(Math.min(6, sentImps.size())));
          long ts = ((Instant) imp.get(1)).toEpochMilli() + random.nextInt(90_000) - 5_000;
          click = Row.of(imp.get(0), Instant.ofEpochMilli(ts), id++);
        } else {
          click = Row.of("ad" + random.nextInt(4), Instant.ofEpochMilli(clock - random.nextInt(40_000)), id++);
        }
        bc.add(click);
        sentClicks.add(click);
      }
      imps.add(bi);
      clicks.add(bc);
    }
    // A last batch far ahead on both sides moves the watermark past every bound (its own rows are left out).
    imps.add(List.of(Row.of("flush", Instant.ofEpochMilli(clock + 3_600_000), -1L)));
    clicks.add(List.of(Row.of("flush", Instant.ofEpochMilli(clock + 3_600_000), -2L)));
    return new Plan(imps, clicks);
  }

  /** The rows not late when their batch ran, by the same watermark rule as the runner (min of the two sides). */
  static List<List<Row>> accepted(Plan plan) {
    List<Row> imps = new ArrayList<>();
    List<Row> clicks = new ArrayList<>();
    long watermark = 0;
    long impWm = Long.MIN_VALUE;
    long clickWm = Long.MIN_VALUE;
    for (int b = 0; b < plan.impressions().size(); b++) {
      for (Row r : plan.impressions().get(b)) {
        if (((Instant) r.get(1)).toEpochMilli() > watermark) {
          imps.add(r);
        }
        impWm = Math.max(impWm, ((Instant) r.get(1)).toEpochMilli() - DELAY_MS);
      }
      for (Row r : plan.clicks().get(b)) {
        if (((Instant) r.get(1)).toEpochMilli() > watermark) {
          clicks.add(r);
        }
        clickWm = Math.max(clickWm, ((Instant) r.get(1)).toEpochMilli() - DELAY_MS);
      }
      if (impWm != Long.MIN_VALUE && clickWm != Long.MIN_VALUE) {
        watermark = Math.max(watermark, Math.min(impWm, clickWm));
      }
    }
    return List.of(imps, clicks);
  }

  static boolean matches(Row imp, Row click) {
    long i = ((Instant) imp.get(1)).toEpochMilli();
    long c = ((Instant) click.get(1)).toEpochMilli();
    return imp.get(0).equals(click.get(0)) && c >= i && c <= i + BOUND_MS;
  }

  /** A plain batch join of the accepted rows, as text rows (flush rows left out). */
  static List<String> oracle(Plan plan, String type) {
    List<List<Row>> a = accepted(plan);
    List<Row> imps = a.get(0).stream().filter(r -> !r.get(0).equals("flush")).toList();
    List<Row> clicks = a.get(1).stream().filter(r -> !r.get(0).equals("flush")).toList();
    List<String> out = new ArrayList<>();
    for (Row i : imps) {
      boolean any = false;
      for (Row c : clicks) {
        if (matches(i, c)) {
          any = true;
          if (!type.equals("left_semi")) {
            out.add(text(i, c));
          }
        }
      }
      if (type.equals("left_semi") && any) {
        out.add(text(i, null));
      }
      if (!any && (type.equals("left_outer") || type.equals("full_outer"))) {
        out.add(text(i, NULLS));
      }
    }
    if (type.equals("right_outer") || type.equals("full_outer")) {
      for (Row c : clicks) {
        if (imps.stream().noneMatch(i -> matches(i, c))) {
          out.add(text(NULLS, c));
        }
      }
    }
    out.sort(null);
    return out;
  }

  private static final Row NULLS = Row.of(null, null, null);

  private static String text(Row imp, Row click) {
    String s = imp.get(0) + "|" + imp.get(1) + "|" + imp.get(2);
    return click == null ? s : s + "|" + click.get(0) + "|" + click.get(1) + "|" + click.get(2);
  }

  private StreamingQuery startBatch(String name, String type, String table) {
    StreamFrame imps = session.readStream().format("memory").option("name", name + "-imp").load()
        .withWatermark("imp_ts", "30 seconds").alias("imp");
    StreamFrame clicks = session.readStream().format("memory").option("name", name + "-click").load()
        .withWatermark("click_ts", "30 seconds").alias("clicks");
    return imps.join(clicks, "imp.ad = clicks.click_ad AND clicks.click_ts BETWEEN imp.imp_ts AND imp.imp_ts"
            + " + INTERVAL 1 MINUTE", type)
        .writeStream().queryName(name).trigger(Trigger.availableNow())
        .option("checkpointLocation", dir.resolve(table + "-checkpoint").toString())
        .toTable(dir.resolve(table).toString());
  }

  /** Runs the plan, one availableNow run per batch; {@code crash} may fail a run, which is then repeated. */
  List<String> run(Plan plan, String name, String type, String table, IntConsumer beforeRun) {
    MemoryStream imp = MemoryStream.named(name + "-imp", IMPRESSIONS);
    MemoryStream click = MemoryStream.named(name + "-click", CLICKS);
    StreamingQuery last = null;
    try {
      for (int b = 0; b < plan.impressions().size(); b++) {
        imp.addData(plan.impressions().get(b));
        click.addData(plan.clicks().get(b));
        while (true) {
          beforeRun.accept(b);
          StreamingQuery q = startBatch(name, type, table);
          try {
            q.awaitTermination();
            last = q;
            break;
          } catch (StreamingQueryException e) {
            assertThat(e).hasMessageContaining("injected crash");
          }
        }
      }
    } finally {
      MemoryStream.remove(name + "-imp");
      MemoryStream.remove(name + "-click");
    }
    QueryProgress p = last.lastProgress().orElseThrow();
    assertThat(p.stateOperators()).extracting(QueryProgress.StateOperatorProgress::operatorName)
        .containsExactly("symmetricHashJoin(left)", "symmetricHashJoin(right)");
    long stateKeys = p.stateOperators().stream().mapToLong(QueryProgress.StateOperatorProgress::numRowsTotal).sum();
    assertThat(stateKeys).as("only the flush rows' key is left in state").isLessThanOrEqualTo(2);
    StructType schema = session.table(dir.resolve(table).toString()).latestSnapshot().schema();
    List<String> out = new ArrayList<>();
    for (Row r : EventStreams.rows(session.table(dir.resolve(table).toString()))) {
      if ("flush".equals(r.get(0)) || schema.size() > 3 && "flush".equals(r.get(3))) {
        continue;
      }
      Row left = Row.of(r.get(0), r.get(1), r.get(2));
      out.add(schema.size() == 3 ? text(left, null) : text(left, Row.of(r.get(3), r.get(4), r.get(5))));
    }
    out.sort(null);
    return out;
  }
}
