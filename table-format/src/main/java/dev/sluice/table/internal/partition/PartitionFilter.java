package dev.sluice.table.internal.partition;

import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.expressions.BoundPredicate;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.StructType;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A predicate on partition columns only, evaluated exactly on a file's partition values: every row
 * of a file matches or none does. An overwrite by partition predicate (replaceWhere) and a
 * metadata-only DELETE need one.
 */
public final class PartitionFilter {
  private final BoundPredicate bound;
  private final List<String> partitionColumns;

  private PartitionFilter(BoundPredicate bound, List<String> partitionColumns) {
    this.bound = bound;
    this.partitionColumns = List.copyOf(partitionColumns);
  }

  /**
   * Binds {@code predicate} to {@code schema} and checks it reads partition columns only.
   *
   * @param operation what needs the filter, for the message, e.g. {@code "Overwrite"}
   * @throws InvalidOperationException if the predicate reads a column that is not a partition column
   * @throws IllegalArgumentException if the predicate does not bind to the schema
   */
  public static PartitionFilter of(Predicate predicate, StructType schema, List<String> partitionColumns, String operation) {
    Set<String> outside = predicate.columnsOutside(partitionColumns);
    if (!outside.isEmpty()) {
      throw new InvalidOperationException(
          operation + " with predicate `" + predicate + "` needs a predicate on partition columns only, but "
              + outside + (outside.size() == 1 ? " is not a partition column" : " are not partition columns")
              + " (partition columns: " + partitionColumns + "). Restrict the predicate to partition columns,"
              + " or use a row-level DELETE for conditions on data columns.");
    }
    return new PartitionFilter(predicate.bind(schema), partitionColumns);
  }

  /** The bound predicate, e.g. to record as the transaction's read predicate. */
  public BoundPredicate bound() {
    return bound;
  }

  /**
   * Whether the rows of a file with these partition values match (all of them, or none).
   *
   * @throws IllegalArgumentException if a partition value is not valid for its column's type
   */
  public boolean matches(Map<String, String> partitionValues) {
    return bound.test(PartitionValues.toRow(bound.schema(), partitionColumns, partitionValues));
  }
}
