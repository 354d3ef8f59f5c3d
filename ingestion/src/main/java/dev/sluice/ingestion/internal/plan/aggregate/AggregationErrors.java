package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.ingestion.OutputMode;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.StructType;
import java.util.List;
import java.util.Locale;

/** Every message of this package, so they all name the operator, say what is wrong and how to fix it. */
final class AggregationErrors {
  static final String OPERATOR = "Streaming aggregation (stateStoreSave)";

  private AggregationErrors() {}

  static IllegalArgumentException unknownColumn(String role, String column, StructType input) {
    return new IllegalArgumentException(OPERATOR + ": unknown " + role + " column '" + column + "'. Known columns: "
        + String.join(", ", input.fieldNames()) + ". Fix the name or add the column before the aggregation.");
  }

  static IllegalArgumentException windowNotTimestamp(WindowSpec window, DataType type) {
    return new IllegalArgumentException(OPERATOR + ": " + window.sql() + " needs a timestamp column, but '"
        + window.column() + "' is " + type.typeName() + ". Cast it first, e.g. withColumn(\"" + window.column()
        + "\", \"CAST(" + window.column() + " AS TIMESTAMP)\").");
  }

  static IllegalArgumentException watermarkNotTimestamp(WatermarkSpec watermark, DataType type) {
    return new IllegalArgumentException(OPERATOR + ": the watermark column '" + watermark.column() + "' is "
        + type.typeName() + ", but event time must be a timestamp. Cast it to TIMESTAMP before withWatermark.");
  }

  static IllegalArgumentException notNumeric(AggregateSpec aggregate, DataType type) {
    return new IllegalArgumentException(OPERATOR + ": " + aggregate.sql() + " needs a numeric column, but '"
        + aggregate.column() + "' is " + type.typeName() + ". Cast it first, e.g. CAST(" + aggregate.column()
        + " AS DOUBLE), or use count/min/max.");
  }

  static IllegalArgumentException notOrderable(AggregateSpec aggregate, DataType type) {
    return new IllegalArgumentException(OPERATOR + ": " + aggregate.sql() + " needs values that can be ordered, but '"
        + aggregate.column() + "' is " + type.typeName() + ". Aggregate one of its fields instead.");
  }

  static IllegalArgumentException nameClash(List<String> names, IllegalArgumentException cause) {
    return new IllegalArgumentException(OPERATOR + ": output columns " + names + " are not unique (" + cause.getMessage()
        + "). Give the clashing aggregates an alias, or rename the key column before the aggregation.", cause);
  }

  static IllegalArgumentException appendWithoutEventTimeKey(AggregationSpec spec) {
    String why = spec.watermark() == null
        ? "the input has no watermark"
        : "no group key is on the watermark column '" + spec.watermark().column() + "'";
    return new IllegalArgumentException(OPERATOR + ": output mode " + spec.outputMode().name().toLowerCase(Locale.ROOT)
        + " is not supported here because " + why + ", so no group would ever be final. Define withWatermark(column,"
        + " delay) on the event time and group by window(column, size) (or by the column itself), or use output mode"
        + " update or complete.");
  }
}
