package dev.sluice.gold.internal;

import dev.sluice.table.Table;

/**
 * A Delta table a gold query joins with and re-reads every batch: when its version differs from the one
 * the last gold commit recorded ({@code gold.dimensionVersion.<index>}), every group may have changed.
 */
record Dimension(int index, Table table) {
  String metric() {
    return "gold.dimensionVersion." + index;
  }

  long latestVersion() {
    return table.latestVersion().orElse(-1L);
  }
}
