package dev.sluice.table.internal.partition;

import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.BoundPredicate;
import dev.sluice.table.expressions.CompareOp;
import dev.sluice.table.internal.expressions.Binder;
import dev.sluice.table.internal.expressions.Column;
import dev.sluice.table.internal.expressions.Node;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides whether a data file might hold a row matching a predicate, from the file's partition values
 * and statistics. It answers false only when no row of the file can make the predicate TRUE.
 *
 * <p>Rules: the predicate is in negation normal form (see {@link Node}), so AND needs both sides and
 * OR either side to possibly match. A leaf on partition columns only is evaluated exactly on the
 * decoded partition values. A leaf on one data column uses the statistics: a comparison cannot match
 * if every value is null or the literal lies outside [min, max] (a timestamp max plus 1 ms, since Delta
 * truncates timestamp stats to milliseconds); {@code IS NULL} cannot match with no nulls, {@code IS NOT
 * NULL} cannot match with only nulls; {@code <>} and {@code NOT IN} cannot match only when min = max
 * is the excluded value. A file with zero rows matches nothing. Anything unknown might match: missing
 * statistics, NaN bounds or literals, column-to-column comparisons, bounds of an unexpected type.
 * Immutable; build one per scan.
 */
public final class FilePruner {
  private final Node root;
  private final StructType schema;
  private final List<String> partitionColumns;
  private final Set<Integer> partitionOrdinals = new HashSet<>();

  private FilePruner(BoundPredicate predicate, Collection<String> partitionColumns) {
    this.root = Binder.root(predicate);
    this.schema = predicate.schema();
    this.partitionColumns = new ArrayList<>(partitionColumns);
    for (String c : partitionColumns) {
      int i = schema.indexOf(c);
      if (i < 0) {
        throw new IllegalArgumentException(
            "Partition column '" + c + "' is not in the schema " + schema.fieldNames()
                + " the predicate was bound to; bind the predicate to the table's schema");
      }
      partitionOrdinals.add(i);
    }
  }

  /** A pruner for {@code predicate} on a table partitioned by {@code partitionColumns}. */
  public static FilePruner of(BoundPredicate predicate, Collection<String> partitionColumns) {
    return new FilePruner(predicate, partitionColumns);
  }

  /**
   * Whether the file might hold a matching row.
   *
   * @param partitionValues the file's {@code add.partitionValues}
   * @param stats the file's statistics, or {@link ColumnStats#NONE}
   * @throws IllegalArgumentException if a partition value is not valid for its column's type
   */
  public boolean mightMatch(Map<String, String> partitionValues, ColumnStats stats) {
    ColumnStats s = stats == null ? ColumnStats.NONE : stats;
    if (Long.valueOf(0).equals(s.numRecords())) {
      return false;
    }
    Row partitionRow = partitionOrdinals.isEmpty() ? null : PartitionValues.toRow(schema, partitionColumns, partitionValues);
    return might(root, partitionRow, s);
  }

  private boolean might(Node node, Row partitionRow, ColumnStats stats) {
    if (node instanceof Node.Constant c) {
      return c.value();
    }
    if (node instanceof Node.And and) {
      return might(and.left(), partitionRow, stats) && might(and.right(), partitionRow, stats);
    }
    if (node instanceof Node.Or or) {
      return might(or.left(), partitionRow, stats) || might(or.right(), partitionRow, stats);
    }
    if (node instanceof Node.CompareColumns cc) {
      boolean bothPartition = isPartition(cc.left()) && isPartition(cc.right());
      return !bothPartition || Boolean.TRUE.equals(cc.eval(partitionRow));
    }
    Column column = leafColumn(node);
    if (isPartition(column)) {
      return Boolean.TRUE.equals(node.eval(partitionRow));
    }
    try {
      return StatsCheck.might(node, column, stats);
    } catch (IllegalArgumentException badStats) {
      // A bound of the wrong Java type is a stats problem, never a reason to skip the file.
      return true;
    }
  }

  private boolean isPartition(Column column) {
    return partitionOrdinals.contains(column.ordinal());
  }

  private static Column leafColumn(Node leaf) {
    if (leaf instanceof Node.Compare c) {
      return c.column();
    }
    if (leaf instanceof Node.IsNull n) {
      return n.column();
    }
    if (leaf instanceof Node.IsNotNull n) {
      return n.column();
    }
    return ((Node.In) leaf).column();
  }

  /** The statistics rules for a leaf on one data column. */
  private static final class StatsCheck {
    private StatsCheck() {}

    static boolean might(Node leaf, Column column, ColumnStats stats) {
      Long rows = stats.numRecords();
      Long nulls = stats.nullCount(column.name());
      if (leaf instanceof Node.IsNull) {
        return nulls == null || nulls > 0;
      }
      boolean allNull = rows != null && nulls != null && nulls >= rows;
      if (leaf instanceof Node.IsNotNull) {
        return !allNull;
      }
      if (allNull) {
        return false;
      }
      Object min = stats.min(column.name());
      Object max = widen(stats.max(column.name()), column);
      if (isNaN(min) || isNaN(max)) {
        return true;
      }
      if (leaf instanceof Node.Compare c) {
        return isNaN(c.literal()) || inRange(column, c.op(), c.literal(), min, max);
      }
      Node.In in = (Node.In) leaf;
      if (in.negated()) {
        return min == null || max == null || column.compare(min, max) != 0 || !in.contains(min);
      }
      boolean floating = column.type() == PrimitiveType.FLOAT || column.type() == PrimitiveType.DOUBLE;
      if (floating && in.values().stream().anyMatch(StatsCheck::isNaN)) {
        return true;
      }
      return in.anyBetween(min, max);
    }

    private static boolean inRange(Column c, CompareOp op, Object literal, Object min, Object max) {
      return switch (op) {
        case EQ -> !(min != null && c.compare(min, literal) > 0) && !(max != null && c.compare(max, literal) < 0);
        case NE -> !(min != null && max != null && c.compare(min, literal) == 0 && c.compare(max, literal) == 0);
        case LT -> !(min != null && c.compare(min, literal) >= 0);
        case LE -> !(min != null && c.compare(min, literal) > 0);
        case GT -> !(max != null && c.compare(max, literal) <= 0);
        case GE -> !(max != null && c.compare(max, literal) < 0);
      };
    }

    private static Object widen(Object max, Column column) {
      return column.type() == PrimitiveType.TIMESTAMP && max instanceof Instant t ? t.plusMillis(1) : max;
    }

    private static boolean isNaN(Object v) {
      return (v instanceof Double d && d.isNaN()) || (v instanceof Float f && f.isNaN());
    }
  }
}
