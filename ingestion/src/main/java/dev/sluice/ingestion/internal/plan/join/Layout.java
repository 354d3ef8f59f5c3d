package dev.sluice.ingestion.internal.plan.join;

import dev.sluice.ingestion.expr.internal.JoinConditions;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The columns of a stream-stream join: which left and right columns are the equality keys, the schema its condition
 * is bound to (left columns, right columns except the using keys, then one struct per alias so that
 * {@code clicks.event_time} reads a side's column), and the output (using keys once, then left, then right columns;
 * the left columns only for a semi join).
 */
final class Layout {
  int[] leftKeys;
  int[] rightKeys;
  String keyNames;
  StructType conditionSchema;
  int[] rightInCondition;
  boolean aliases;
  StructType output;
  int[] leftOut;
  int[] rightOut;
  private String leftAlias;
  private String rightAlias;

  static Layout of(StreamJoinSpec spec, StructType l, StructType r) {
    Layout out = new Layout();
    out.leftAlias = spec.leftAlias();
    out.rightAlias = spec.rightAlias();
    Set<String> using = new LinkedHashSet<>();
    spec.usingKeys().forEach(k -> using.add(k.toLowerCase(java.util.Locale.ROOT)));
    List<int[]> keys = new ArrayList<>();
    for (String k : spec.usingKeys()) {
      int li = l.indexOf(k);
      int ri = r.indexOf(k);
      if (li < 0 || ri < 0) {
        throw new IllegalArgumentException(StreamStreamJoin.OPERATOR + ": join key '" + k + "' is not a column of the "
            + (li < 0 ? "left" : "right") + " stream, whose columns are " + (li < 0 ? l : r).fieldNames()
            + ". Name a column both streams have, or join on a condition such as l.a = r.b.");
      }
      keys.add(new int[] {li, ri});
    }
    List<StructField> cond = new ArrayList<>(l.fields());
    List<Integer> rightIn = new ArrayList<>();
    for (int i = 0; i < r.size(); i++) {
      StructField f = r.field(i);
      if (using.contains(f.name().toLowerCase(java.util.Locale.ROOT))) {
        continue;
      }
      if (l.indexOf(f.name()) >= 0) {
        throw new IllegalArgumentException(StreamStreamJoin.OPERATOR + ": column '" + f.name() + "' is on both sides"
            + " of " + spec.describe() + ". Rename it on one side first (e.g. selectExpr(\"" + f.name() + " AS right_"
            + f.name() + "\", ...)), or list it among the join keys if it is one.");
      }
      cond.add(f);
      rightIn.add(i);
    }
    out.rightInCondition = rightIn.stream().mapToInt(Integer::intValue).toArray();
    out.aliases = spec.leftAlias() != null && spec.rightAlias() != null;
    if (out.aliases) {
      cond.add(new StructField(spec.leftAlias(), l, true, Map.of()));
      cond.add(new StructField(spec.rightAlias(), r, true, Map.of()));
    }
    out.conditionSchema = new StructType(cond);
    if (spec.condition() != null) {
      JoinConditions.analyze(spec.condition(), parts -> out.resolve(parts, l, r)).equalities().forEach(keys::add);
    }
    if (keys.isEmpty()) {
      throw new IllegalArgumentException(StreamStreamJoin.OPERATOR + ": " + spec.describe() + " has no equality"
          + " between a left and a right column; a stream-stream join needs at least one (as in Spark), e.g."
          + " imp.ad_id = clicks.ad_id, or join keys named alike on both sides.");
    }
    out.leftKeys = keys.stream().mapToInt(k -> k[0]).toArray();
    out.rightKeys = keys.stream().mapToInt(k -> k[1]).toArray();
    List<String> names = new ArrayList<>();
    for (int[] k : keys) {
      if (!l.field(k[0]).type().equals(r.field(k[1]).type())) {
        throw new IllegalArgumentException(StreamStreamJoin.OPERATOR + ": join key " + l.field(k[0]).name() + " is "
            + l.field(k[0]).type().typeName() + " on the left but " + r.field(k[1]).name() + " is "
            + r.field(k[1]).type().typeName() + " on the right. Cast one side so that both have the same type.");
      }
      names.add(l.field(k[0]).name() + "=" + r.field(k[1]).name());
    }
    out.keyNames = String.join(",", names);
    out.output(spec, l, r, using);
    return out;
  }

  private void output(StreamJoinSpec spec, StructType l, StructType r, Set<String> using) {
    List<StructField> fields = new ArrayList<>();
    List<Integer> lo = new ArrayList<>();
    List<Integer> ro = new ArrayList<>();
    boolean leftNullable = spec.type().keepsRight();
    boolean rightNullable = spec.type().keepsLeft();
    for (int i = 0; i < (spec.usingKeys().isEmpty() ? 0 : leftKeys.length); i++) {
      fields.add(l.field(leftKeys[i]));
    }
    for (int i = 0; i < l.size(); i++) {
      if (!using.contains(l.field(i).name().toLowerCase(java.util.Locale.ROOT))) {
        lo.add(i);
        fields.add(nullable(l.field(i), leftNullable));
      }
    }
    if (spec.type() == StreamJoinType.LEFT_SEMI) {
      output = l;
      leftOut = new int[0];
      rightOut = new int[0];
      return;
    }
    for (int i = 0; i < r.size(); i++) {
      if (!using.contains(r.field(i).name().toLowerCase(java.util.Locale.ROOT))) {
        ro.add(i);
        fields.add(nullable(r.field(i), rightNullable));
      }
    }
    output = new StructType(fields);
    leftOut = lo.stream().mapToInt(Integer::intValue).toArray();
    rightOut = ro.stream().mapToInt(Integer::intValue).toArray();
  }

  private static StructField nullable(StructField f, boolean nullable) {
    return nullable && !f.nullable() ? new StructField(f.name(), f.type(), true, f.metadata()) : f;
  }

  /** A column reference of the condition: {@code alias.column} or a column name of one side. */
  JoinConditions.SideColumn resolve(List<String> parts, StructType l, StructType r) {
    if (parts.size() == 2 && leftAlias != null && parts.get(0).equalsIgnoreCase(leftAlias)) {
      int i = l.indexOf(parts.get(1));
      return i < 0 ? null : new JoinConditions.SideColumn(0, i);
    }
    if (parts.size() == 2 && rightAlias != null && parts.get(0).equalsIgnoreCase(rightAlias)) {
      int i = r.indexOf(parts.get(1));
      return i < 0 ? null : new JoinConditions.SideColumn(1, i);
    }
    if (parts.size() != 1) {
      return null;
    }
    int li = l.indexOf(parts.get(0));
    if (li >= 0) {
      return new JoinConditions.SideColumn(0, li);
    }
    int ri = r.indexOf(parts.get(0));
    return ri < 0 ? null : new JoinConditions.SideColumn(1, ri);
  }
}
