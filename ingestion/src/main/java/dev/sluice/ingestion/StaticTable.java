package dev.sluice.ingestion;

import dev.sluice.ingestion.internal.plan.join.RefreshPolicy;
import dev.sluice.ingestion.internal.plan.join.StaticSide;
import dev.sluice.table.types.StructType;

/**
 * The static side of a stream-static join: a Delta table (re-read when it has a new version, every
 * batch, by default) or data files (read once by default). Made by {@link SluiceSession#staticTable}
 * and {@link SluiceSession#staticFiles}.
 */
public final class StaticTable {
  private final StaticSide side;
  private final RefreshPolicy refresh;

  StaticTable(StaticSide side, RefreshPolicy refresh) {
    this.side = side;
    this.refresh = refresh;
  }

  /** Re-read the static side before every batch (picking up a new Delta version). */
  public StaticTable refreshEveryBatch() {
    return new StaticTable(side, RefreshPolicy.EVERY_BATCH);
  }

  /** Read the static side once, at the first batch. */
  public StaticTable refreshNever() {
    return new StaticTable(side, RefreshPolicy.NEVER);
  }

  StaticSide side() {
    return side;
  }

  RefreshPolicy refresh() {
    return refresh;
  }

  static StaticTable delta(dev.sluice.table.Table table) {
    return new StaticTable(StaticSide.delta(table), null);
  }

  static StaticTable files(Location location, String format, StructType schema) {
    return new StaticTable(StaticSide.files(location, format, schema), null);
  }

  @Override
  public String toString() {
    return side.describe();
  }
}
