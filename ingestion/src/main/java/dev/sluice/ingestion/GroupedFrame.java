package dev.sluice.ingestion;

import dev.sluice.ingestion.internal.plan.PlanStep;
import dev.sluice.ingestion.internal.plan.TransformSpec;
import dev.sluice.ingestion.internal.plan.aggregate.AggregateSpec;
import dev.sluice.ingestion.internal.plan.aggregate.AggregationSpec;
import dev.sluice.ingestion.internal.plan.aggregate.SessionAggregationSpec;
import dev.sluice.ingestion.internal.plan.aggregate.SessionWindowSpec;
import dev.sluice.ingestion.internal.plan.aggregate.WatermarkSpec;
import dev.sluice.ingestion.internal.plan.aggregate.WindowSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A streaming {@code groupBy}: keys are column names and at most one time window,
 * {@code window(event_time, '1 minute')} (tumbling) or {@code window(event_time, '10 minutes', '5 minutes')}
 * (sliding), or one session window, {@code session_window(event_time, '10 minutes')} (the gap may be an SQL
 * expression over the row). {@link #agg} adds the aggregates.
 */
public final class GroupedFrame {
  private static final Pattern WINDOW = Pattern.compile(
      "(?i)\\s*window\\s*\\(\\s*`?([A-Za-z_][A-Za-z0-9_ ]*?)`?\\s*,\\s*'([^']+)'\\s*(?:,\\s*'([^']+)'\\s*)?\\)\\s*");

  private static final Pattern SESSION_WINDOW = Pattern.compile(
      "(?is)\\s*session_window\\s*\\(\\s*`?([A-Za-z_][A-Za-z0-9_ ]*?)`?\\s*,\\s*(.+?)\\s*\\)\\s*");

  private final StreamFrame frame;
  private final List<String> keys = new ArrayList<>();
  private WindowSpec window;
  private SessionWindowSpec session;

  GroupedFrame(StreamFrame frame, String... keys) {
    this.frame = frame;
    for (String k : keys) {
      Matcher m = WINDOW.matcher(k);
      Matcher sm = SESSION_WINDOW.matcher(k);
      if (sm.matches()) {
        if (window != null || session != null) {
          throw new AnalysisException("groupBy takes one window, got " + (window != null ? window.sql() : session.sql())
              + " and " + k.trim());
        }
        session = SessionWindowSpec.of(sm.group(1), sm.group(2));
      } else if (m.matches()) {
        if (window != null || session != null) {
          throw new AnalysisException("groupBy takes one window, got " + window.sql() + " and " + k.trim());
        }
        var size = Durations.parse(m.group(2), "window size");
        window = m.group(3) == null ? WindowSpec.tumbling(m.group(1), size)
            : WindowSpec.sliding(m.group(1), size, Durations.parse(m.group(3), "window slide"));
      } else if (k.trim().toLowerCase(java.util.Locale.ROOT).startsWith("session_window")) {
        throw new AnalysisException("Cannot read the session window '" + k + "': write session_window(event_time,"
            + " '10 minutes'), or give the gap as an SQL expression over the row");
      } else if (k.trim().toLowerCase(java.util.Locale.ROOT).startsWith("window")) {
        throw new AnalysisException("Cannot read the window '" + k + "': write window(event_time, '1 minute') or"
            + " window(event_time, '10 minutes', '5 minutes') with quoted durations");
      } else {
        this.keys.add(k.trim());
      }
    }
  }

  /** Aggregates as text: {@code count(*)}, {@code count(col)}, {@code sum(amount) AS total}, avg, min, max, approx_count_distinct. */
  public StreamFrame agg(String... aggregates) {
    List<AggregateSpec> specs = new ArrayList<>();
    for (String a : aggregates) {
      specs.add(AggregateSpec.parse(a));
    }
    StreamFrame.WatermarkStep w = frame.watermark();
    WatermarkSpec watermark = w == null ? null : new WatermarkSpec(w.column(), w.delay());
    List<String> keyList = List.copyOf(keys);
    WindowSpec win = window;
    if (session != null) {
      return frame.with(sessionStep(keyList, specs, watermark, w, aggregates));
    }
    String description = "groupBy(" + String.join(", ", describeKeys()) + ").agg(" + String.join(", ", aggregates) + ")";
    Map<String, String> fingerprint = new LinkedHashMap<>();
    fingerprint.put("keys", String.join(",", keyList));
    fingerprint.put("window", win == null ? "" : win.sql());
    fingerprint.put("aggregates", String.join(",", aggregates));
    fingerprint.put("eventTimeColumn", w == null ? "" : w.column());
    return frame.with(new PlanStep() {
      @Override
      public Kind kind() {
        return Kind.AGGREGATE;
      }

      @Override
      public String describe() {
        return description;
      }

      @Override
      public TransformSpec spec(OutputMode mode) {
        return new AggregationSpec(keyList, win, specs, mode, watermark);
      }

      @Override
      public Map<String, String> fingerprint() {
        return fingerprint;
      }
    });
  }

  private PlanStep sessionStep(List<String> keyList, List<AggregateSpec> specs, WatermarkSpec watermark,
      StreamFrame.WatermarkStep w, String... aggregates) {
    SessionWindowSpec s = session;
    String description = "groupBy(" + String.join(", ", describeKeys()) + ").agg(" + String.join(", ", aggregates) + ")";
    Map<String, String> fingerprint = new LinkedHashMap<>();
    fingerprint.put("keys", String.join(",", keyList));
    fingerprint.put("window", s.sql());
    fingerprint.put("aggregates", String.join(",", aggregates));
    fingerprint.put("eventTimeColumn", w == null ? "" : w.column());
    return new PlanStep() {
      @Override
      public Kind kind() {
        return Kind.SESSION_AGGREGATE;
      }

      @Override
      public String describe() {
        return description;
      }

      @Override
      public TransformSpec spec(OutputMode mode) {
        return new SessionAggregationSpec(keyList, s, specs, mode, watermark);
      }

      @Override
      public Map<String, String> fingerprint() {
        return fingerprint;
      }
    };
  }

  /** {@code agg("count(*) AS count")}. */
  public StreamFrame count() {
    return agg("count(*) AS count");
  }

  private List<String> describeKeys() {
    List<String> out = new ArrayList<>();
    if (window != null) {
      out.add(window.sql());
    }
    if (session != null) {
      out.add(session.sql());
    }
    out.addAll(keys);
    return out;
  }
}
