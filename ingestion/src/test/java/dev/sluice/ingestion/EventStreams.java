package dev.sluice.ingestion;

import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * Seeded random event streams (disordered, some events far behind, some re-sent) as JSON-lines files,
 * and the plain batch computations that the stateful queries over them must agree with. The oracle
 * derives each batch's watermark from the file boundaries alone: batch b holds files
 * [b*k, (b+1)*k) for maxFilesPerTrigger k, and its watermark is max(previous, greatest event time of
 * the batches before it - delay), starting at 0.
 */
final class EventStreams {
  static final StructType SCHEMA = StructType.of(
      StructField.of("seq", PrimitiveType.LONG), StructField.of("key", PrimitiveType.STRING),
      StructField.of("ts", PrimitiveType.TIMESTAMP), StructField.of("value", PrimitiveType.LONG));
  static final long DELAY_MS = 120_000;
  static final String DELAY = "2 minutes";
  static final String[] AGGREGATES = {"count(*) AS cnt", "sum(value) AS total", "min(value) AS lo",
      "max(value) AS hi", "avg(value) AS mean"};
  private static final long T0 = Instant.parse("2024-03-01T00:00:00Z").toEpochMilli();

  /** One event; {@code seq} is unique per line, a re-sent event keeps key, ts and value. */
  record Event(long seq, String key, long tsMs, long value) {
    String json() {
      return "{\"seq\":" + seq + ",\"key\":\"" + key + "\",\"ts\":\"" + Instant.ofEpochMilli(tsMs) + "\",\"value\":"
          + value + "}";
    }
  }

  /** One batch of the oracle: its id, watermark in force and events in arrival order. */
  record OracleBatch(long id, long watermarkMs, List<Event> events) {}

  /** A late event with the batch it arrived in and that batch's watermark. */
  record LateEvent(long seq, long batchId, long watermarkMs) {}

  private EventStreams() {}

  /**
   * {@code files} files of 1-30 events each: event time trails a clock that advances ~20 s per file,
   * shuffled back by up to 3 minutes (disorder); 8 % are 5-25 minutes behind (late); 15 % re-send an
   * earlier event (duplicates for dropDuplicates).
   */
  static List<List<Event>> generate(long seed, int files, int keys) {
    Random random = new Random(seed);
    List<List<Event>> out = new ArrayList<>();
    List<Event> sent = new ArrayList<>();
    long seq = 0;
    for (int f = 0; f < files; f++) {
      long clock = T0 + f * 20_000L;
      List<Event> file = new ArrayList<>();
      int n = 1 + random.nextInt(30);
      for (int i = 0; i < n; i++) {
        Event e;
        if (!sent.isEmpty() && random.nextInt(100) < 15) {
          Event old = sent.get(sent.size() - 1 - random.nextInt(Math.min(sent.size(), 40)));
          e = new Event(seq++, old.key(), old.tsMs(), old.value());
        } else {
          long behind = random.nextInt(100) < 8 ? 300_000 + random.nextInt(1_200_000) : random.nextInt(180_000);
          e = new Event(seq++, "k" + random.nextInt(keys), clock - behind, random.nextInt(1000) - 200);
        }
        file.add(e);
        sent.add(e);
      }
      out.add(file);
    }
    return out;
  }

  /** Writes files [from, to) through {@code put(name, bytes)}; names sort in file order. */
  static void write(List<List<Event>> files, int from, int to, BiConsumer<String, byte[]> put) {
    for (int f = from; f < to; f++) {
      StringBuilder sb = new StringBuilder();
      files.get(f).forEach(e -> sb.append(e.json()).append('\n'));
      put.accept(String.format("events-%05d.jsonl", f), sb.toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Cuts the files into batches of {@code k} files with the watermark each batch runs with. */
  static List<OracleBatch> batches(List<List<Event>> files, int k) {
    List<OracleBatch> out = new ArrayList<>();
    long watermark = 0;
    for (int start = 0; start < files.size(); start += k) {
      List<Event> events = new ArrayList<>();
      files.subList(start, Math.min(files.size(), start + k)).forEach(events::addAll);
      out.add(new OracleBatch(out.size(), watermark, events));
      long max = events.stream().mapToLong(Event::tsMs).max().orElse(Long.MIN_VALUE);
      watermark = Math.max(watermark, max - DELAY_MS);
    }
    return out;
  }

  /** The watermark after the last batch (what no-data batches end with). */
  static long finalWatermark(List<OracleBatch> batches) {
    long watermark = batches.get(batches.size() - 1).watermarkMs();
    for (OracleBatch b : batches) {
      watermark = Math.max(watermark, b.events().stream().mapToLong(Event::tsMs).max().orElse(0) - DELAY_MS);
    }
    return watermark;
  }

  /** Window starts of an event time for windows of {@code sizeMs} every {@code slideMs}. */
  static List<Long> windowStarts(long tsMs, long sizeMs, long slideMs) {
    List<Long> out = new ArrayList<>();
    long last = Math.floorDiv(tsMs, slideMs) * slideMs;
    for (long s = last; s > tsMs - sizeMs; s -= slideMs) {
      out.add(s);
    }
    return out;
  }

  /** The result of a windowed GROUP BY: canonical text rows, plus the events no window accepted. */
  record Grouped(Set<String> rows, Set<LateEvent> late) {}

  /**
   * The batch GROUP BY window, key over the events that were accepted: an event counts for a window
   * whose end is after the watermark of its batch (the aggregation's rule, see AggregationSpec);
   * {@code dropLate=false} (complete mode) counts every event. {@code maxEndMs} keeps only windows
   * ending at or before it (append mode's final watermark).
   */
  static Grouped groupBy(List<OracleBatch> batches, long sizeMs, long slideMs, boolean dropLate, long maxEndMs) {
    Map<String, long[]> groups = new TreeMap<>();
    Set<LateEvent> late = new HashSet<>();
    for (OracleBatch b : batches) {
      for (Event e : b.events()) {
        boolean kept = false;
        for (long start : windowStarts(e.tsMs(), sizeMs, slideMs)) {
          if (dropLate && start + sizeMs <= b.watermarkMs()) {
            continue;
          }
          kept = true;
          String group = Instant.ofEpochMilli(start) + "|" + Instant.ofEpochMilli(start + sizeMs) + "|" + e.key();
          long[] a = groups.computeIfAbsent(group, g -> new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE, start + sizeMs});
          a[0]++;
          a[1] += e.value();
          a[2] = Math.min(a[2], e.value());
          a[3] = Math.max(a[3], e.value());
        }
        if (!kept) {
          late.add(new LateEvent(e.seq(), b.id(), b.watermarkMs()));
        }
      }
    }
    Set<String> rows = new HashSet<>();
    groups.forEach((g, a) -> {
      if (a[4] <= maxEndMs) {
        rows.add(g + "|" + a[0] + "|" + a[1] + "|" + a[2] + "|" + a[3] + "|" + mean((double) a[1] / a[0]));
      }
    });
    return new Grouped(rows, late);
  }

  /** An aggregation output row (window, key, cnt, total, lo, hi, mean) as the oracle's text. */
  static String groupRow(Row r) {
    Row window = (Row) r.get(0);
    return window.get(0) + "|" + window.get(1) + "|" + r.get(1) + "|" + r.get(2) + "|" + r.get(3) + "|" + r.get(4)
        + "|" + r.get(5) + "|" + mean((Double) r.get(6));
  }

  private static String mean(double v) {
    return String.format(Locale.ROOT, "%.6f", v);
  }

  /** What a deduplication lets through (sequence numbers, in order) and which events were late. */
  record Deduped(List<Long> passed, Set<LateEvent> late) {}

  /**
   * dropDuplicatesWithinWatermark(key) per its Javadoc: a batch evicts keys whose expiry (first event
   * time + delay) is at or before its watermark, drops events before the watermark as late, and passes
   * the first event of each key not in state.
   */
  static Deduped dedupWithinWatermark(List<OracleBatch> batches) {
    Map<String, Long> expiry = new HashMap<>();
    List<Long> passed = new ArrayList<>();
    Set<LateEvent> late = new HashSet<>();
    for (OracleBatch b : batches) {
      expiry.values().removeIf(x -> x <= b.watermarkMs());
      for (Event e : b.events()) {
        if (e.tsMs() < b.watermarkMs()) {
          late.add(new LateEvent(e.seq(), b.id(), b.watermarkMs()));
        } else if (!expiry.containsKey(e.key())) {
          expiry.put(e.key(), e.tsMs() + DELAY_MS);
          passed.add(e.seq());
        }
      }
    }
    return new Deduped(passed, late);
  }

  /**
   * dropDuplicates(key, ts) as a batch computation: the first arrival of each (key, ts) among the events
   * that were not late (event time before the watermark of their batch).
   */
  static Deduped dropDuplicates(List<OracleBatch> batches) {
    Set<String> seen = new HashSet<>();
    List<Long> passed = new ArrayList<>();
    Set<LateEvent> late = new HashSet<>();
    for (OracleBatch b : batches) {
      for (Event e : b.events()) {
        if (e.tsMs() < b.watermarkMs()) {
          late.add(new LateEvent(e.seq(), b.id(), b.watermarkMs()));
        } else if (seen.add(e.key() + "|" + e.tsMs())) {
          passed.add(e.seq());
        }
      }
    }
    return new Deduped(passed, late);
  }

  /** Every row of a Delta table. */
  static List<Row> rows(Table table) {
    List<Row> out = new ArrayList<>();
    if (!table.exists()) {
      return out;
    }
    try (CloseableIterator<Row> it = table.latestSnapshot().scan().build().rows()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  /** The late-rows table as (seq, _late_batch_id, _late_watermark). */
  static Set<LateEvent> lateRows(Table table) {
    Set<LateEvent> out = new HashSet<>();
    if (!table.exists()) {
      return out;
    }
    StructType schema = table.latestSnapshot().schema();
    for (Row r : rows(table)) {
      long seq = (Long) r.get(schema.indexOf("seq"));
      long batch = (Long) r.get(schema.indexOf("_late_batch_id"));
      long watermark = ((Instant) r.get(schema.indexOf("_late_watermark"))).toEpochMilli();
      out.add(new LateEvent(seq, batch, watermark));
    }
    return out;
  }
}
