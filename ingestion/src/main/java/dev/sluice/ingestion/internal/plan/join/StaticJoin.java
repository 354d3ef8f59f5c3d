package dev.sluice.ingestion.internal.plan.join;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.ingestion.internal.plan.Transform;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A stream-static hash join: the static side is read into a hash table by key at the first batch and,
 * with {@link RefreshPolicy#EVERY_BATCH}, again before any batch that finds a new version of the static
 * Delta table (files: before every batch). The output has the stream's columns, then the static ones (key columns included); a static
 * column whose name a stream column already has is renamed {@code <static name>_<column>} (e.g.
 * {@code customers_id}). With a left outer join the static columns are nullable.
 */
public final class StaticJoin implements Transform {
  private static final List<Row> NO_MATCH = List.of();

  private final StaticJoinSpec spec;
  private final StaticReader reader;
  private final StructType schema;
  private final JoinKeys leftKeys;
  private final JoinKeys rightKeys;
  private final int leftWidth;
  private final int rightWidth;
  private final BoundExpression condition;
  /** Static rows by {@link JoinKeys#hashKeyOf}. */
  private Map<Object, List<Row>> table;
  /** Whether every static key has one row: a left join then gives one row per input row. */
  private boolean uniqueKeys;
  /** With unique keys, each key's position in {@link #uniqueRows}; null otherwise. */
  private KeyIndex uniqueIndex;
  private Row[] uniqueRows;
  private long loadedVersion = -1;
  private OptionalLong lastStaticVersion = OptionalLong.empty();

  private StaticJoin(StaticJoinSpec spec, StaticReader reader, StructType schema, JoinKeys leftKeys,
      JoinKeys rightKeys, int leftWidth, BoundExpression condition) {
    this.spec = spec;
    this.reader = reader;
    this.schema = schema;
    this.leftKeys = leftKeys;
    this.rightKeys = rightKeys;
    this.leftWidth = leftWidth;
    this.rightWidth = schema.size() - leftWidth;
    this.condition = condition;
  }

  static StaticJoin bind(StaticJoinSpec spec, StructType left) {
    if (spec.leftKeys().isEmpty() || spec.leftKeys().size() != spec.rightKeys().size()) {
      throw new IllegalArgumentException("Stream-static join with " + spec.side().describe() + " needs as many stream"
          + " key columns as static ones, at least one, but has " + spec.leftKeys() + " and " + spec.rightKeys()
          + "; fix the join keys");
    }
    StaticReader reader = StaticReader.open(spec.side());
    StructType right = reader.schema();
    JoinKeys leftKeys = JoinKeys.resolve(spec.leftKeys(), left, "the stream");
    JoinKeys rightKeys = JoinKeys.resolve(spec.rightKeys(), right, "the static side (" + spec.side().describe() + ")");
    JoinKeys.checkComparable(leftKeys, left, rightKeys, right);
    StructType joined = joinedSchema(left, right, spec);
    BoundExpression condition = spec.extraCondition() == null ? null
        : Expressions.bindPredicate(spec.extraCondition(), joined);
    return new StaticJoin(spec, reader, joined, leftKeys, rightKeys, left.size(), condition);
  }

  private static StructType joinedSchema(StructType left, StructType right, StaticJoinSpec spec) {
    List<StructField> fields = new ArrayList<>(left.fields());
    for (StructField f : right.fields()) {
      String name = f.name();
      if (left.indexOf(name) >= 0) {
        name = spec.side().name() + "_" + name;
        if (left.indexOf(name) >= 0 || right.indexOf(name) >= 0) {
          throw new IllegalArgumentException("Stream-static join with " + spec.side().describe() + ": the static column '"
              + f.name() + "' clashes with a stream column, and its renamed form '" + name + "' is taken too; rename"
              + " one of the columns before the join");
        }
      }
      fields.add(new StructField(name, f.type(), f.nullable() || spec.type() == JoinType.LEFT_OUTER, f.metadata()));
    }
    return new StructType(fields);
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Batch apply(Batch input, BatchInfo info) {
    refreshIfNeeded();
    EvalContext context = new EvalContext(info.batchTimestamp());
    if (condition == null && spec.type() == JoinType.LEFT_OUTER && uniqueKeys) {
      // A lookup: one output row per input row, so the joined rows are a view (no copy, nothing spilled again).
      return input.map(schema, new Lookup(uniqueIndex, uniqueRows, input.size()));
    }
    Batch.Builder out = Batch.builder(schema);
    for (Row left : input.rows()) {
      Object key = leftKeys.hashKeyOf(left);
      boolean matched = false;
      for (Row right : key == null ? NO_MATCH : table.getOrDefault(key, NO_MATCH)) {
        Row joined = concat(left, right);
        if (condition == null || condition.test(joined, context)) {
          out.add(joined);
          matched = true;
        }
      }
      if (!matched && spec.type() == JoinType.LEFT_OUTER) {
        out.add(concat(left, null));
      }
    }
    return out.build();
  }

  private void refreshIfNeeded() {
    if (table != null && (spec.refresh() == RefreshPolicy.NEVER
        || reader.latestVersion().map(v -> v == loadedVersion).orElse(false))) {
      return;
    }
    StaticReader.Read read = reader.read();
    Map<Object, List<Row>> byKey = new HashMap<>();
    for (Row r : read.rows()) {
      Object key = rightKeys.hashKeyOf(r);
      if (key != null) {
        byKey.computeIfAbsent(key, k -> new ArrayList<>(1)).add(r);
      }
    }
    table = byKey;
    uniqueKeys = byKey.values().stream().allMatch(rows -> rows.size() == 1);
    uniqueIndex = null;
    uniqueRows = null;
    if (uniqueKeys) {
      Object[] keys = new Object[byKey.size()];
      uniqueRows = new Row[byKey.size()];
      int i = 0;
      for (Map.Entry<Object, List<Row>> e : byKey.entrySet()) {
        keys[i] = e.getKey();
        uniqueRows[i++] = e.getValue().get(0);
      }
      uniqueIndex = new KeyIndex(keys);
    }
    loadedVersion = read.version();
    lastStaticVersion = read.version() >= 0 ? OptionalLong.of(read.version()) : OptionalLong.empty();
  }

  /**
   * The static row of each input row, found by key on the view's first pass and by position on the later ones (a
   * stateful aggregation reads its input twice): a hash lookup per row and pass was most of a gold batch's join.
   * Passes may run at once; two that look the same row up store the same number.
   */
  private final class Lookup implements Batch.RowMapper {
    private final KeyIndex indexOf;
    private final Row[] rows;
    /** Per position: 0 not looked up yet, -1 no match, else the static row's index plus one. */
    private final int[] found;

    Lookup(KeyIndex indexOf, Row[] rows, int inputRows) {
      this.indexOf = indexOf;
      this.rows = rows;
      this.found = new int[inputRows];
    }

    @Override
    public Row map(Row left, int position) {
      int at = found[position];
      if (at == 0) {
        Object key = leftKeys.hashKeyOf(left);
        int index = key == null ? -1 : indexOf.positionOf(key);
        at = index < 0 ? -1 : index + 1;
        found[position] = at;
      }
      return concat(left, at < 0 ? null : rows[at - 1]);
    }
  }

  /** The joined row as a view of both sides: nothing is copied (null {@code right}: a left row without match). */
  private Row concat(Row left, Row right) {
    return new JoinedRow(left, right, leftWidth, rightWidth);
  }

  /** The version of the static Delta table the last batch joined with; empty for files and before the first batch. */
  public OptionalLong lastStaticVersion() {
    return lastStaticVersion;
  }

  /** The static side as errors name it, e.g. {@code delta table file:/w/silver/customers/}. */
  /** The static side's name (its table or folder name), used to label its version in progress and commits. */
  public String staticName() {
    return spec.side().name();
  }

  public String staticDescription() {
    return spec.side().describe();
  }

  @Override
  public String describe() {
    return "StaticJoin[" + spec.type().name().toLowerCase(java.util.Locale.ROOT) + ", " + staticDescription()
        + ", " + spec.leftKeys() + " = " + spec.rightKeys()
        + (spec.extraCondition() == null ? "" : ", " + condition.sql()) + ", refresh " + spec.refresh() + "]";
  }
}
