package dev.sluice.ingestion;

import dev.sluice.ingestion.EventStreams.Event;
import dev.sluice.ingestion.EventStreams.OracleBatch;
import dev.sluice.ingestion.stateful.FlatMapGroupsWithStateFunction;
import dev.sluice.ingestion.stateful.GroupState;
import dev.sluice.table.data.Row;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Event-time sessions (events of a key closer than a gap) with flatMapGroupsWithState and EventTimeTimeout, and
 * the plain computation they must equal: a session is emitted once the watermark is past its end plus the gap
 * (no accepted event can reach it any more), so the output is every session of the accepted events whose end
 * plus gap is before the final watermark. The state keeps every open session of a key, since a disordered event
 * may fall between two of them and join them.
 */
final class GapSessions {
  static final long GAP_MS = 60_000;

  record Span(long start, long end, long events) {}

  record Spans(List<Span> spans) {}

  record Session(String key, long startMs, long endMs, long events) {}

  private GapSessions() {}

  static final class Function implements FlatMapGroupsWithStateFunction<Spans, Session> {
    @Override
    public Iterator<Session> call(Row key, Iterator<Row> rows, GroupState<Spans> state) {
      List<Span> spans = state.exists() ? new ArrayList<>(state.get().spans()) : new ArrayList<>();
      while (rows.hasNext()) {
        Instant ts = (Instant) rows.next().get(2);
        if (ts != null) {
          spans = add(spans, ts.toEpochMilli());
        }
      }
      long watermark = state.getCurrentWatermarkMs();
      List<Session> closed = new ArrayList<>();
      List<Span> open = new ArrayList<>();
      for (Span s : spans) {
        if (s.end() + GAP_MS < watermark) {
          closed.add(new Session((String) key.get(0), s.start(), s.end(), s.events()));
        } else {
          open.add(s);
        }
      }
      if (open.isEmpty()) {
        state.remove();
      } else {
        state.update(new Spans(open));
        state.setTimeoutTimestamp(open.stream().mapToLong(s -> s.end() + GAP_MS).min().orElseThrow());
      }
      return closed.iterator();
    }
  }

  /** Adds one event time, merging every span it reaches (and those the merged span then reaches). */
  static List<Span> add(List<Span> spans, long t) {
    Span merged = new Span(t, t, 1);
    List<Span> rest = new ArrayList<>(spans);
    boolean changed = true;
    while (changed) {
      changed = false;
      for (Iterator<Span> it = rest.iterator(); it.hasNext(); ) {
        Span s = it.next();
        if (merged.start() <= s.end() + GAP_MS && s.start() <= merged.end() + GAP_MS) {
          merged = new Span(Math.min(s.start(), merged.start()), Math.max(s.end(), merged.end()),
              s.events() + merged.events());
          it.remove();
          changed = true;
        }
      }
    }
    rest.add(merged);
    rest.sort(Comparator.comparingLong(Span::start));
    return rest;
  }

  /** The oracle: sessions, late events and keys left in state, from the batches alone. */
  record Expected(Set<String> sessions, Set<Long> lateSeqs, long keysInState) {}

  static Expected expected(List<OracleBatch> batches) {
    long finalWatermark = EventStreams.finalWatermark(batches);
    Map<String, List<Long>> accepted = new HashMap<>();
    Set<Long> late = new TreeSet<>();
    for (OracleBatch b : batches) {
      for (Event e : b.events()) {
        if (e.tsMs() < b.watermarkMs()) {
          late.add(e.seq());
        } else {
          accepted.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e.tsMs());
        }
      }
    }
    Set<String> sessions = new TreeSet<>();
    long keysInState = 0;
    for (Map.Entry<String, List<Long>> e : accepted.entrySet()) {
      List<Long> times = new ArrayList<>(e.getValue());
      times.sort(null);
      long start = times.get(0);
      long end = start;
      long n = 0;
      boolean open = false;
      for (long t : times) {
        if (t > end + GAP_MS) {
          open |= emit(sessions, e.getKey(), start, end, n, finalWatermark);
          start = t;
          n = 0;
        }
        end = t;
        n++;
      }
      open |= emit(sessions, e.getKey(), start, end, n, finalWatermark);
      keysInState += open ? 1 : 0;
    }
    return new Expected(sessions, late, keysInState);
  }

  /** Adds a closed session; returns whether it is still open. */
  private static boolean emit(Set<String> out, String key, long start, long end, long n, long watermark) {
    if (end + GAP_MS < watermark) {
      out.add(text(key, start, end, n));
      return false;
    }
    return true;
  }

  static String text(String key, long start, long end, long n) {
    return key + " " + Instant.ofEpochMilli(start) + ".." + Instant.ofEpochMilli(end) + " x" + n;
  }

  static String text(Row r) {
    return text((String) r.get(0), (Long) r.get(1), (Long) r.get(2), (Long) r.get(3));
  }
}
