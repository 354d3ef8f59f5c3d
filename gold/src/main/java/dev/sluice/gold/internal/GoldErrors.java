package dev.sluice.gold.internal;

import dev.sluice.table.types.DataType;
import dev.sluice.table.types.StructType;

/** The messages of the gold layer's errors: problem, cause and fix, naming the option or column. */
final class GoldErrors {
  private GoldErrors() {}

  static IllegalArgumentException badMeasure(String text) {
    return new IllegalArgumentException("aggregate.measures: cannot read '" + text + "'; write"
        + " <count|sum|avg|min|max>(<expression>) AS <name>, e.g. sum(amount) AS revenue or count(*) AS orders"
        + " (only count takes *)");
  }

  static IllegalArgumentException unknownColumn(String name, String option, StructType input) {
    return new IllegalArgumentException(option + ": there is no column '" + name + "' after the joins and columns"
        + " of the pipeline; the columns are " + input.fieldNames() + ". Fix the name or add it under columns.");
  }

  static IllegalArgumentException windowNotTimestamp(String column, DataType type) {
    return new IllegalArgumentException("aggregate.window.column: '" + column + "' is " + type + ", but a window"
        + " needs a timestamp column; cast it under columns, e.g. {name: " + column + ", expr: \"to_timestamp("
        + column + ")\"}");
  }

  static IllegalArgumentException notNumeric(String measure, DataType type) {
    return new IllegalArgumentException("aggregate.measures: '" + measure + "' sums or averages a " + type
        + " value, but sum and avg need a number; cast it in the measure, e.g. sum(CAST(x AS DOUBLE))");
  }

  static IllegalArgumentException notOrderable(String measure, DataType type) {
    return new IllegalArgumentException("aggregate.measures: '" + measure + "' takes the min or max of a " + type
        + " value, which has no order; use a string, number, date or timestamp expression");
  }

  static IllegalStateException appendOverExistingWindows(String pipeline, String gold, String checkpoint) {
    return new IllegalStateException("Pipeline '" + pipeline + "' (append mode) has a new checkpoint " + checkpoint
        + ", but its gold table " + gold + " already holds windows: reprocessing would read silver from its first"
        + " version and append every finalised window a second time. To rebuild, delete the gold table folder (its"
        + " checkpoint is inside it) and its _late table, then run again; to continue instead, restore the old"
        + " checkpoint.");
  }

  static IllegalArgumentException notGold(String pipeline, String what) {
    return new IllegalArgumentException("Pipeline '" + pipeline + "' cannot run as a gold pipeline: " + what
        + ". Start it with the module of its layer, or fix its config.");
  }

  static IllegalStateException stateDisagrees(String groupKey, long rows, long version) {
    return new IllegalStateException("Gold's group state (version " + version + ") and silver's change feed disagree:"
        + " group " + groupKey + " would have " + rows + " rows, because the feed takes back a row the state never"
        + " counted (e.g. a joined file changed, which gold can't see, or the state was edited). Delete the gold"
        + " checkpoint's state/gold folder: the next batch recomputes every group from silver and starts it again.");
  }

  static IllegalStateException unknownChangeType(String changeType) {
    return new IllegalStateException("Silver's change feed has a row with _change_type '" + changeType + "'; gold knows"
        + " insert, update_preimage, update_postimage and delete. The source is not a Delta change data feed or is"
        + " damaged; read silver's table with readChangeFeed.");
  }
}
