package dev.sluice.config.internal;

import dev.sluice.config.AggregateOutputMode;
import dev.sluice.config.ExpectationAction;
import dev.sluice.config.JoinRefresh;
import dev.sluice.config.JoinType;
import dev.sluice.config.Layer;
import dev.sluice.config.SchemaEvolution;
import dev.sluice.config.KafkaSourceConfig;
import dev.sluice.config.SourceFormat;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/** The YAML names of every enumerated value, in documentation order (also used by the schema test). */
final class Names {
  static final Map<String, Layer> LAYERS = of(Layer.values(), Layer::yamlName);
  static final Map<String, SourceFormat> FILE_FORMATS = of(
      new SourceFormat[] {SourceFormat.JSON, SourceFormat.CSV, SourceFormat.PARQUET}, SourceFormat::yamlName);
  static final Map<String, SourceFormat> TABLE_FORMATS = Map.of("delta", SourceFormat.DELTA);
  static final Map<String, SourceFormat> FORMATS = of(SourceFormat.values(), SourceFormat::yamlName);
  /** What a join reads: files or a table, never a stream of topics. */
  static final Map<String, SourceFormat> JOIN_FORMATS = of(new SourceFormat[] {SourceFormat.JSON, SourceFormat.CSV,
      SourceFormat.PARQUET, SourceFormat.DELTA}, SourceFormat::yamlName);
  static final Map<String, KafkaSourceConfig.ValueFormat> VALUE_FORMATS = of(KafkaSourceConfig.ValueFormat.values(),
      KafkaSourceConfig.ValueFormat::yamlName);
  static final Map<String, SchemaEvolution> SCHEMA_EVOLUTIONS = of(SchemaEvolution.values(), SchemaEvolution::yamlName);
  static final Map<String, ExpectationAction> ACTIONS = of(ExpectationAction.values(), ExpectationAction::yamlName);
  static final Map<String, JoinType> JOIN_TYPES = of(JoinType.values(), JoinType::yamlName);
  static final Map<String, JoinRefresh> REFRESHES = of(JoinRefresh.values(), JoinRefresh::yamlName);
  static final Map<String, AggregateOutputMode> OUTPUT_MODES = of(AggregateOutputMode.values(),
      AggregateOutputMode::yamlName);
  static final Map<String, Integer> SCD_TYPES = of(new Integer[] {1, 2}, String::valueOf);
  static final Map<String, dev.sluice.config.ProcessConfig.Mode> PROCESS_MODES = of(
      dev.sluice.config.ProcessConfig.Mode.values(), dev.sluice.config.ProcessConfig.Mode::yamlName);
  static final Map<String, dev.sluice.config.ProcessConfig.Timeout> TIMEOUTS = of(
      dev.sluice.config.ProcessConfig.Timeout.values(), dev.sluice.config.ProcessConfig.Timeout::yamlName);
  static final Map<String, dev.sluice.config.StreamJoinConfig.Type> STREAM_JOIN_TYPES = of(
      dev.sluice.config.StreamJoinConfig.Type.values(), dev.sluice.config.StreamJoinConfig.Type::yamlName);
  static final String TUMBLING = "tumbling";
  static final String SLIDING = "sliding";
  static final String SESSION = "session";
  static final Map<String, String> WINDOW_TYPES = of(new String[] {TUMBLING, SLIDING, SESSION}, t -> t);
  static final String AVAILABLE_NOW = "available_now";
  static final String ONCE = "once";

  private Names() {}

  private static <E> Map<String, E> of(E[] values, Function<E, String> name) {
    Map<String, E> map = new LinkedHashMap<>();
    for (E value : values) {
      map.put(name.apply(value), value);
    }
    return Collections.unmodifiableMap(map);
  }
}
