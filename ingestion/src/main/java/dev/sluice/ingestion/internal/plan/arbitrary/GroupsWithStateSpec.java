package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.internal.plan.TransformSpec;
import dev.sluice.ingestion.stateful.Encoder;
import dev.sluice.ingestion.stateful.GroupStateTimeout;
import dev.sluice.table.types.StructType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An unbound {@code mapGroupsWithState} / {@code flatMapGroupsWithState} step.
 *
 * @param map true for {@code mapGroupsWithState}
 * @param declaredMode the output mode given to {@code flatMapGroupsWithState} (update for {@code mapGroupsWithState})
 * @param watermarkColumn the stream's event-time column, or null without a watermark
 */
public record GroupsWithStateSpec<S, O>(boolean map, List<String> keyColumns, GroupFunction<S, O> function,
    OutputMode declaredMode, Encoder<S> stateEncoder, Encoder<O> outputEncoder, GroupStateTimeout timeout,
    String watermarkColumn) implements TransformSpec {
  public GroupsWithStateSpec {
    keyColumns = List.copyOf(keyColumns);
  }

  String operator() {
    return map ? "mapGroupsWithState" : "flatMapGroupsWithState";
  }

  /** The user-facing step name, e.g. {@code flatMapGroupsWithState[user](com.acme.Sessions, update, ProcessingTimeTimeout)}. */
  public String describe() {
    return operator() + "[" + String.join(", ", keyColumns) + "](" + GroupFunction.stableName(function.userClass())
        + ", " + declaredMode.name().toLowerCase(java.util.Locale.ROOT) + ", " + timeout + ")";
  }

  /** What decides the shape of the state; a restart that changes any of it needs a new checkpoint. */
  public Map<String, String> fingerprintLines() {
    Map<String, String> lines = new LinkedHashMap<>();
    lines.put("operator", operator());
    lines.put("keys", String.join(",", keyColumns));
    lines.put("function", GroupFunction.stableName(function.userClass()));
    lines.put("stateType", stateEncoder.typeName());
    lines.put("stateSchema", stateEncoder.schema().toJson());
    lines.put("timeout", timeout.name());
    lines.put("declaredMode", declaredMode.name().toLowerCase(java.util.Locale.ROOT));
    return lines;
  }

  @Override
  public StatefulTransform bind(StructType input) {
    KeyGroups keys = KeyGroups.resolve(operator(), keyColumns, input);
    LateRowFilter late = timeout == GroupStateTimeout.EVENT_TIME_TIMEOUT && watermarkColumn != null
        ? LateRowFilter.on(watermarkColumn, input, operator()) : LateRowFilter.NONE;
    return new GroupsWithState<>(this, keys, late);
  }
}
