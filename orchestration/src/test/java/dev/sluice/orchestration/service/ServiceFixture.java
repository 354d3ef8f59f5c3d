package dev.sluice.orchestration.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * A three-layer config over tiny generated JSON files — events_bronze → events_silver (merge by id) →
 * totals_gold (sum and count per customer) — and what each table must hold.
 */
final class ServiceFixture {
  static final String BRONZE = "events_bronze";
  static final String SILVER = "events_silver";
  static final String GOLD = "totals_gold";

  final Path dir;
  final Path input;
  final String warehouse;
  private final List<String> ids = new ArrayList<>();
  private final Map<String, long[]> totals = new TreeMap<>();
  private int files;

  ServiceFixture(Path dir) {
    this.dir = dir;
    this.input = dir.resolve("input");
    String uri = dir.resolve("warehouse").toUri().toString();
    this.warehouse = uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri;
  }

  /** The config; {@code bronzeSchedule} is YAML for bronze's schedule, e.g. {@code {every: 1 second}}. */
  String yaml(String bronzeSchedule) {
    return yaml(bronzeSchedule, null);
  }

  /** With a schedule of silver's own too, when {@code silverSchedule} is not null. */
  String yaml(String bronzeSchedule, String silverSchedule) {
    return """
        warehouse: %s
        defaults: {trigger: available_now, max_files_per_trigger: 1}
        pipelines:
          - name: events_bronze
            layer: bronze
            source:
              format: json
              path: %s
              schema:
                - {name: id, type: string}
                - {name: customer, type: string}
                - {name: amount, type: long}
                - {name: updated_at, type: timestamp}
            sink: {table: bronze/events}
            schedule: %s
          - name: events_silver
            layer: silver
            source: {pipeline: events_bronze}
            sink: {table: silver/events, merge: {keys: [id], sequence_by: updated_at}}
            after: [events_bronze]%s
          - name: totals_gold
            layer: gold
            source: {pipeline: events_silver}
            aggregate: {group_by: [customer], measures: ["sum(amount) AS total", "count(*) AS n"]}
            sink: {table: gold/totals}
            after: [events_silver]
        """.formatted(warehouse, input, bronzeSchedule,
        silverSchedule == null ? "" : "\n    schedule: " + silverSchedule);
  }

  SluiceConfig config(String bronzeSchedule) {
    return config(bronzeSchedule, null);
  }

  SluiceConfig config(String bronzeSchedule, String silverSchedule) {
    return ConfigLoader.parse(yaml(bronzeSchedule, silverSchedule), "test.yaml", Map.of());
  }

  Path writeConfig(String bronzeSchedule) {
    try {
      return Files.writeString(dir.resolve("pipelines.yaml"), yaml(bronzeSchedule));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Lands {@code count} files of {@code rows} events each, every id new. */
  synchronized void land(int count, int rows) {
    try {
      Files.createDirectories(input);
      for (int f = files; f < files + count; f++) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rows; i++) {
          String id = "e" + f + "-" + i;
          String customer = "c" + (i % 3);
          long amount = f * 100L + i;
          sb.append(String.format(Locale.ROOT,
              "{\"id\":\"%s\",\"customer\":\"%s\",\"amount\":%d,\"updated_at\":\"2026-01-01T00:00:00Z\"}%n", id,
              customer, amount));
          ids.add(id);
          long[] t = totals.computeIfAbsent(customer, k -> new long[2]);
          t[0] += amount;
          t[1]++;
        }
        Path tmp = input.resolve(".events-" + f + ".tmp");
        Files.writeString(tmp, sb.toString());
        Path target = input.resolve(String.format(Locale.ROOT, "events-%05d.json", f));
        Files.move(tmp, target);
        // discovery orders files by modification time; keep it the landing order
        target.toFile().setLastModified(1_700_000_000_000L + f * 1000L);
      }
      files += count;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  synchronized List<String> ids() {
    return List.copyOf(ids);
  }

  /** Checks bronze holds every landed id exactly once, silver every id, gold the totals per customer. */
  synchronized void check(SluiceSession session) {
    assertThat(column(session, "bronze/events", "id")).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(column(session, "silver/events", "id")).containsExactlyInAnyOrderElementsOf(ids);
    Map<String, String> expected = new TreeMap<>();
    totals.forEach((c, t) -> expected.put(c, t[0] + "/" + t[1]));
    assertThat(goldTotals(session)).isEqualTo(expected);
  }

  Map<String, String> goldTotals(SluiceSession session) {
    Table gold = table(session, "gold/totals");
    StructType s = gold.latestSnapshot().schema();
    Map<String, String> out = new TreeMap<>();
    for (Row r : rows(gold)) {
      out.put((String) r.get(s.indexOf("customer")), ((Number) r.get(s.indexOf("total"))).longValue() + "/"
          + ((Number) r.get(s.indexOf("n"))).longValue());
    }
    return out;
  }

  List<Object> column(SluiceSession session, String table, String column) {
    Table t = table(session, table);
    int index = t.latestSnapshot().schema().indexOf(column);
    return rows(t).stream().map(r -> r.get(index)).toList();
  }

  Table table(SluiceSession session, String relative) {
    return session.table(warehouse + "/" + relative);
  }

  static List<Row> rows(Table t) {
    try (CloseableIterator<Row> it = t.latestSnapshot().scan().build().rows()) {
      return it.toList();
    }
  }

  static void await(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Timed out after " + timeout.toSeconds() + " s waiting for " + what);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
