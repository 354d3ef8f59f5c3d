package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.internal.plan.TransformSpec;
import dev.sluice.ingestion.stateful.Encoder;
import dev.sluice.ingestion.stateful.StatefulProcessor;
import dev.sluice.ingestion.stateful.TimeMode;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * An unbound {@code transformWithState} step. Binding runs the processor's {@code init} once to learn its state
 * variables (as Spark's driver does), which then shape the state and the checkpoint fingerprint.
 *
 * @param watermarkColumn the stream's event-time column, or null without a watermark
 */
public record TransformWithStateSpec<O>(List<String> keyColumns, StatefulProcessor<Row, Row, O> processor,
    TimeMode timeMode, OutputMode declaredMode, Encoder<O> outputEncoder, String watermarkColumn)
    implements TransformSpec {
  public TransformWithStateSpec {
    keyColumns = List.copyOf(keyColumns);
  }

  public String describe() {
    return "transformWithState[" + String.join(", ", keyColumns) + "](" + processor.getClass().getName() + ", "
        + timeMode + ", " + declaredMode.name().toLowerCase(java.util.Locale.ROOT) + ")";
  }

  /**
   * What decides the shape of the state, the state variables included (learnt by running {@code init} with a
   * handle that only records them); value schemas are not among them, as they may evolve.
   */
  public Map<String, String> fingerprintLines() {
    Map<String, String> lines = new LinkedHashMap<>();
    lines.put("operator", "transformWithState");
    lines.put("keys", String.join(",", keyColumns));
    lines.put("processor", processor.getClass().getName());
    lines.put("timeMode", timeMode.name());
    lines.put("declaredMode", declaredMode.name().toLowerCase(java.util.Locale.ROOT));
    lines.put("outputType", outputEncoder.typeName());
    ProcessorHandle recorder = new ProcessorHandle(describe(), timeMode, null, new DueTimes(), new DueTimes());
    processor.setHandle(recorder);
    processor.init(declaredMode, timeMode);
    Map<String, StateVariable> variables = recorder.declared();
    lines.put("stateVariables", variables.values().stream().map(v -> v.name() + "=" + v.fingerprint())
        .collect(Collectors.joining(", ")));
    return lines;
  }

  @Override
  public StatefulTransform bind(StructType input) {
    String op = describe();
    KeyGroups keys = KeyGroups.resolve("transformWithState", keyColumns, input);
    LateRowFilter late = timeMode == TimeMode.EVENT_TIME && watermarkColumn != null
        ? LateRowFilter.on(watermarkColumn, input, "transformWithState") : LateRowFilter.NONE;
    TwsLayout layout = new TwsLayout(keys.keySchema());
    DueTimes timers = new DueTimes();
    DueTimes expiries = new DueTimes();
    ProcessorHandle handle = new ProcessorHandle(op, timeMode, layout, timers, expiries);
    processor.setHandle(handle);
    processor.init(declaredMode, timeMode);
    return new TransformWithState<>(this, keys, late, layout, handle, timers, expiries);
  }
}
