package dev.sluice.table;

import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.replay.SnapshotState;
import java.util.List;

/** Configures a {@link Scan}: which columns and which rows. */
public final class ScanBuilder {
  private final TableContext context;
  private final SnapshotState state;
  private List<String> columns;
  private Predicate filter = Predicate.alwaysTrue();

  ScanBuilder(TableContext context, SnapshotState state) {
    this.context = context;
    this.state = state;
  }

  /** Only these columns, in this order (default: all columns in schema order). */
  public ScanBuilder select(String... columns) {
    return select(List.of(columns));
  }

  public ScanBuilder select(List<String> columns) {
    this.columns = List.copyOf(columns);
    return this;
  }

  /**
   * Only rows matching {@code predicate}: files are skipped by partition values and min/max stats,
   * and the remaining rows are filtered exactly (SQL semantics: a row matches only when true).
   */
  public ScanBuilder filter(Predicate predicate) {
    this.filter = predicate;
    return this;
  }

  /**
   * @throws IllegalArgumentException naming an unknown column in the selection or filter
   */
  public Scan build() {
    return new Scan(context, state, columns == null ? state.schema().fieldNames() : columns, filter);
  }
}
