package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.table.types.DataType;
import dev.sluice.table.types.StructType;
import java.util.Comparator;

/** Binds an {@link AggregateSpec} to the input schema: resolves its column and checks its type. */
final class Aggregators {
  private Aggregators() {}

  static Aggregator bind(AggregateSpec spec, StructType input) {
    if (spec.column() == null) {
      return new CountAggregator(spec.name(), -1);
    }
    int column = input.indexOf(spec.column());
    if (column < 0) {
      throw AggregationErrors.unknownColumn("aggregate " + spec.sql(), spec.column(), input);
    }
    DataType type = input.field(column).type();
    switch (spec.function()) {
      case COUNT:
        return new CountAggregator(spec.name(), column);
      case SUM:
        requireNumeric(spec, type);
        return new SumAggregator(spec.name(), column, type);
      case AVG:
        requireNumeric(spec, type);
        return new AvgAggregator(spec.name(), column, type);
      case MIN:
      case MAX:
        Comparator<Object> order = ValueOrder.of(type);
        if (order == null) {
          throw AggregationErrors.notOrderable(spec, type);
        }
        return new MinMaxAggregator(spec.name(), column, type, order, spec.function() == AggregateFunction.MAX);
      case APPROX_COUNT_DISTINCT:
        return new ApproxCountDistinctAggregator(spec.name(), column, type, spec.relativeSd());
      default:
        throw new AssertionError(spec.function());
    }
  }

  private static void requireNumeric(AggregateSpec spec, DataType type) {
    if (NumericKind.of(type) == null) {
      throw AggregationErrors.notNumeric(spec, type);
    }
  }
}
