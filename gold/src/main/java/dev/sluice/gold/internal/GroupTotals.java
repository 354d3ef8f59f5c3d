package dev.sluice.gold.internal;

import dev.sluice.gold.internal.GroupAggregation.Group;

/**
 * One group's totals in update mode when every measure is invertible: how many rows the group has (0 =
 * the group is gone) and the count and sum of each measure, changed by each change row with its sign.
 */
final class GroupTotals {
  final Group group;
  final Accumulator.Invertible[] measures;
  long rows;

  GroupTotals(Group group, Accumulator.Invertible[] measures, long rows) {
    this.group = group;
    this.measures = measures;
    this.rows = rows;
  }
}
