package dev.sluice.gold.internal;

import dev.sluice.config.AggregateConfig;
import dev.sluice.config.WindowConfig;
import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A gold aggregate evaluated as plain batch code over rows of one schema (after joins, columns and
 * filter): which groups a row belongs to (its group-by values and, with a window, each window that
 * contains its event time, with the engine's window formulas) and the measures of the groups.
 *
 * <p>Output rows are {@code window_start, window_end} (with a window), the group-by columns, the
 * measures, and {@code _group_key}: a canonical JSON text of the group's key values. It is the MERGE key
 * of the gold table, because SQL equality, and so MERGE, never matches a null group value.
 */
final class GroupAggregation {
  static final String WINDOW_START = "window_start";
  static final String WINDOW_END = "window_end";
  static final String GROUP_KEY = "_group_key";

  private final List<String> groupBy;
  private final int[] groupColumns;
  private final int timeColumn;
  private final long sizeMicros;
  private final long slideMicros;
  private final List<Measure> measures;
  private final BoundExpression[] arguments;
  private final DataType[] argumentTypes;
  private final DataType[] resultTypes;
  private final StructType outputSchema;
  private final Map<Long, Window> windows = new java.util.HashMap<>();

  GroupAggregation(AggregateConfig config, StructType input) {
    this.groupBy = config.groupBy();
    this.groupColumns = new int[groupBy.size()];
    List<StructField> out = new ArrayList<>();
    WindowConfig window = config.window().orElse(null);
    if (window != null) {
      timeColumn = column(input, window.column(), "aggregate.window.column");
      if (input.field(timeColumn).type() != PrimitiveType.TIMESTAMP) {
        throw GoldErrors.windowNotTimestamp(window.column(), input.field(timeColumn).type());
      }
      sizeMicros = window.size().duration().toNanos() / 1000;
      slideMicros = window.slide().duration().toNanos() / 1000;
      out.add(StructField.of(WINDOW_START, PrimitiveType.TIMESTAMP, true));
      out.add(StructField.of(WINDOW_END, PrimitiveType.TIMESTAMP, true));
    } else {
      timeColumn = -1;
      sizeMicros = 0;
      slideMicros = 0;
    }
    for (int i = 0; i < groupColumns.length; i++) {
      groupColumns[i] = column(input, groupBy.get(i), "aggregate.group_by");
      out.add(StructField.of(groupBy.get(i), input.field(groupColumns[i]).type(), true));
    }
    this.measures = config.measures().stream().map(Measure::parse).toList();
    this.arguments = new BoundExpression[measures.size()];
    this.argumentTypes = new DataType[measures.size()];
    this.resultTypes = new DataType[measures.size()];
    for (int i = 0; i < arguments.length; i++) {
      Measure m = measures.get(i);
      arguments[i] = m.argument() == null ? null : Expressions.bind(m.argument(), input);
      argumentTypes[i] = arguments[i] == null ? PrimitiveType.LONG : arguments[i].type();
      resultTypes[i] = Accumulator.resultType(m.function(), argumentTypes[i], config.measures().get(i));
      out.add(StructField.of(m.name(), resultTypes[i], true));
    }
    out.add(StructField.of(GROUP_KEY, PrimitiveType.STRING, true));
    this.outputSchema = new StructType(out);
  }

  private static int column(StructType input, String name, String option) {
    int i = input.indexOf(name);
    if (i < 0) {
      throw GoldErrors.unknownColumn(name, option, input);
    }
    return i;
  }

  StructType outputSchema() {
    return outputSchema;
  }

  List<Measure> measures() {
    return measures;
  }

  boolean windowed() {
    return timeColumn >= 0;
  }

  /** The event time of a row (null without a window or when the row has none). */
  Instant eventTime(Row row) {
    return timeColumn < 0 ? null : (Instant) row.get(timeColumn);
  }

  /**
   * The groups {@code row} contributes to, as ids (no key text, no window instants: those are made once
   * per distinct group by {@link #group}): none when windowed and its event time is null.
   */
  List<GroupId> groupIdsOf(Row row) {
    Object[] values = new Object[groupColumns.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = GroupId.canonical(row.get(groupColumns[i]));
    }
    if (timeColumn < 0) {
      return List.of(new GroupId(false, 0, values));
    }
    Instant t = (Instant) row.get(timeColumn);
    if (t == null) {
      return List.of();
    }
    long micros = micros(t);
    if (sizeMicros == slideMicros) {
      return List.of(new GroupId(true, micros - Math.floorMod(micros, slideMicros), values)); // tumbling
    }
    List<GroupId> out = new ArrayList<>(2);
    for (long start : windowStarts(micros, sizeMicros, slideMicros)) {
      out.add(new GroupId(true, start, values));
    }
    return out;
  }

  /** Whether a row belongs to at most one group (no window, or a tumbling one): {@link #probe} then applies. */
  boolean oneGroupPerRow() {
    return timeColumn < 0 || sizeMicros == slideMicros;
  }

  /** A probe for {@link #probe}: one per pass, reused for every row. */
  GroupId newProbe() {
    return new GroupId(false, 0, new Object[groupColumns.length]);
  }

  /**
   * Sets {@code probe} to the one group of {@code row} ({@link #oneGroupPerRow}), in place: no id, values array
   * or list per row as {@link #groupIdsOf} makes them. False when the row has no group (a null event time).
   */
  boolean probe(Row row, GroupId probe) {
    Object[] values = probe.values();
    for (int i = 0; i < values.length; i++) {
      values[i] = GroupId.canonical(row.get(groupColumns[i]));
    }
    if (timeColumn < 0) {
      probe.set(false, 0, values);
      return true;
    }
    Instant t = (Instant) row.get(timeColumn);
    if (t == null) {
      return false;
    }
    long micros = micros(t);
    probe.set(true, micros - Math.floorMod(micros, slideMicros), values);
    return true;
  }

  /** The group of {@code id}, with its window instants and the values of the first row seen for it. */
  Group group(GroupId id, Row first) {
    Object[] values = new Object[groupColumns.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = first.get(groupColumns[i]);
    }
    return id.windowed() ? window(id.windowStart()).group(values) : new Group(values, null, null, null);
  }

  /** A window and the text of its start in group keys (Instant.toString is costly; windows repeat). */
  private record Window(Instant start, Instant end, String text) {
    Group group(Object[] values) {
      return new Group(values, start, end, text);
    }
  }

  private Window window(long start) {
    Window w = windows.get(start);
    if (w == null) {
      if (windows.size() >= 65_536) {
        windows.clear();
      }
      Instant s = instant(start);
      w = new Window(s, instant(start + sizeMicros), s.toString());
      windows.put(start, w);
    }
    return w;
  }

  /** Aggregates {@code rows} into the groups {@code wanted} accepts, by group key. */
  Map<String, Row> aggregate(Iterable<Row> rows, Predicate<GroupId> wanted, EvalContext context) {
    Map<GroupId, Accumulator[]> accumulators = new LinkedHashMap<>();
    Map<GroupId, Group> groups = new java.util.HashMap<>();
    for (Row row : rows) {
      for (GroupId id : groupIdsOf(row)) {
        Accumulator[] acc = accumulators.get(id);
        if (acc == null) {
          if (!wanted.test(id)) {
            continue;
          }
          acc = newAccumulators();
          accumulators.put(id, acc);
          groups.put(id, group(id, row));
        }
        for (int i = 0; i < acc.length; i++) {
          acc[i].add(arguments[i] == null ? Boolean.TRUE : arguments[i].eval(row, context));
        }
      }
    }
    Map<String, Row> out = new LinkedHashMap<>();
    accumulators.forEach((id, acc) -> {
      Group g = groups.get(id);
      String key = g.key();
      out.put(key, outputRow(g, key, acc));
    });
    return out;
  }

  private Accumulator[] newAccumulators() {
    Accumulator[] acc = new Accumulator[measures.size()];
    for (int i = 0; i < acc.length; i++) {
      acc[i] = Accumulator.create(measures.get(i).function(), argumentTypes[i], resultTypes[i]);
    }
    return acc;
  }

  /** Whether every measure can take values back (count, sum, avg), so update mode can follow the change feed. */
  boolean invertible() {
    return measures.stream().allMatch(m -> Accumulator.invertible(m.function()));
  }

  /** The accumulators of one group when {@link #invertible()}. */
  Accumulator.Invertible[] newInvertibles() {
    Accumulator.Invertible[] acc = new Accumulator.Invertible[measures.size()];
    for (int i = 0; i < acc.length; i++) {
      acc[i] = (Accumulator.Invertible) Accumulator.create(measures.get(i).function(), argumentTypes[i], resultTypes[i]);
    }
    return acc;
  }

  /** Adds ({@code sign} 1) or takes back (-1) the measure arguments of {@code row}. */
  void add(Accumulator.Invertible[] acc, Row row, int sign, EvalContext context) {
    for (int i = 0; i < acc.length; i++) {
      acc[i].add(arguments[i] == null ? Boolean.TRUE : arguments[i].eval(row, context), sign);
    }
  }

  /** The type of the group-by column {@code i}. */
  DataType groupType(int i) {
    return outputSchema.field((timeColumn >= 0 ? 2 : 0) + i).type();
  }

  /** The type of measure {@code i}'s argument (long for {@code count(*)}). */
  DataType argumentType(int i) {
    return argumentTypes[i];
  }

  /** The number of group-by columns. */
  int groupCount() {
    return groupColumns.length;
  }

  /** The gold row of group {@code g} (whose key is {@code key}) with the measures of {@code acc}. */
  Row outputRow(Group g, String key, Accumulator[] acc) {
    Object[] values = new Object[outputSchema.size()];
    int at = 0;
    if (timeColumn >= 0) {
      values[at++] = g.windowStart();
      values[at++] = g.windowEnd();
    }
    for (Object v : g.values()) {
      values[at++] = v;
    }
    for (Accumulator a : acc) {
      values[at++] = a.result();
    }
    values[at] = key;
    return Row.of(values);
  }

  /** A row of the output schema that only carries a group key (the source of a MERGE delete). */
  Row deletionMarker(String key) {
    Object[] values = new Object[outputSchema.size()];
    values[values.length - 1] = key;
    return Row.of(values);
  }

  /** The starts of the windows containing {@code t} (Spark's TimeWindowing, start offset 0). */
  static List<Long> windowStarts(long t, long size, long slide) {
    long lastStart = t - Math.floorMod(t, slide);
    List<Long> out = new ArrayList<>(2);
    for (long start = lastStart; t < start + size; start -= slide) {
      out.add(start);
    }
    return out;
  }

  static long micros(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
  }

  static Instant instant(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
  }

  /**
   * One group: its group-by values and window; {@link #key()} is its canonical text (see {@link GroupKeys}),
   * {@code windowText} the window start as written there (null without a window).
   */
  record Group(Object[] values, Instant windowStart, Instant windowEnd, String windowText) {
    Group(Object[] values, Instant windowStart, Instant windowEnd) {
      this(values, windowStart, windowEnd, windowStart == null ? null : windowStart.toString());
    }

    String key() {
      return GroupKeys.render(windowText, values);
    }
  }
}
