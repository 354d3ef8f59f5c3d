package dev.sluice.config.internal;

import static dev.sluice.config.internal.Shape.FREE_MAP;
import static dev.sluice.config.internal.Shape.SCALAR;
import static dev.sluice.config.internal.Shape.SCALAR_LIST;
import static dev.sluice.config.internal.Shape.listOf;
import static dev.sluice.config.internal.Shape.object;
import static dev.sluice.config.internal.Shape.scalarOr;

/** The key tree of the config format; {@code sluice-config.schema.json} must describe exactly these keys. */
final class ConfigShape {
  static final Shape STORAGE = object(
      "endpoint", SCALAR, "region", SCALAR, "path_style", SCALAR,
      "access_key_id", SCALAR, "secret_access_key", SCALAR, "session_token", SCALAR,
      "connection_timeout", SCALAR, "socket_timeout", SCALAR, "attempt_timeout", SCALAR);
  static final Shape TRIGGER = scalarOr(object("processing_time", SCALAR));
  static final Shape MAINTENANCE_OPTIMIZE = scalarOr(object("schedule", SCALAR, "where", SCALAR,
      "zorder_by", SCALAR_LIST, "cluster_by", SCALAR_LIST, "target_file_size", SCALAR));
  static final Shape MAINTENANCE_VACUUM = scalarOr(object("schedule", SCALAR, "retain", SCALAR));
  static final Shape MAINTENANCE = object("optimize", MAINTENANCE_OPTIMIZE, "vacuum", MAINTENANCE_VACUUM);
  static final Shape STATE_STORE = scalarOr(object("provider", SCALAR, "memory", SCALAR, "local_dir", SCALAR));
  static final Shape DEFAULTS = object(
      "trigger", TRIGGER, "max_files_per_trigger", SCALAR, "min_batches_to_retain", SCALAR,
      "maintenance", MAINTENANCE, "state_store", STATE_STORE);
  static final Shape COLUMN = object("name", SCALAR, "type", SCALAR, "nullable", SCALAR);
  static final Shape SOURCE = object(
      "format", SCALAR, "path", SCALAR, "pipeline", SCALAR, "table", SCALAR, "options", FREE_MAP,
      "schema", listOf(COLUMN), "schema_evolution", SCALAR,
      "bootstrap_servers", SCALAR, "topics", SCALAR_LIST, "value_format", SCALAR, "starting_offsets", SCALAR,
      "max_offsets_per_trigger", SCALAR);
  static final Shape DERIVED = object("name", SCALAR, "expr", SCALAR);
  static final Shape EXPECTATION = object("name", SCALAR, "condition", SCALAR, "action", SCALAR);
  static final Shape WATERMARK = object("column", SCALAR, "delay", SCALAR, "max_future_skew", SCALAR);
  static final Shape DEDUP = object("keys", SCALAR_LIST, "watermark", WATERMARK);
  static final Shape JOIN = object(
      "table", SCALAR, "pipeline", SCALAR, "path", SCALAR, "format", SCALAR, "options", FREE_MAP,
      "schema", listOf(COLUMN), "on", SCALAR_LIST, "type", SCALAR, "refresh", SCALAR);
  static final Shape WINDOW = object("type", SCALAR, "column", SCALAR, "size", SCALAR, "slide", SCALAR,
      "gap", SCALAR, "gap_expr", SCALAR);
  static final Shape AGGREGATE = object(
      "group_by", SCALAR_LIST, "window", WINDOW, "measures", SCALAR_LIST, "output_mode", SCALAR,
      "watermark", WATERMARK);
  static final Shape PROCESS = object("class", SCALAR, "keys", SCALAR_LIST, "output_mode", SCALAR,
      "timeout", SCALAR, "options", FREE_MAP, "watermark", WATERMARK);
  static final Shape JOIN_STREAM = object("pipeline", SCALAR, "table", SCALAR, "options", FREE_MAP,
      "keys", SCALAR_LIST, "type", SCALAR, "within", SCALAR, "time_condition", SCALAR,
      "left_watermark", WATERMARK, "right_watermark", WATERMARK);
  static final Shape MERGE = object("keys", SCALAR_LIST, "sequence_by", SCALAR, "delete_when", SCALAR, "scd", SCALAR,
      "tombstone_retention", SCALAR);
  static final Shape SINK = object("table", SCALAR, "partition_by", SCALAR_LIST, "merge", MERGE, "properties", FREE_MAP);
  static final Shape SCHEDULE = object("cron", SCALAR, "every", SCALAR);
  static final Shape PIPELINE = object(
      "name", SCALAR, "layer", SCALAR, "source", SOURCE, "columns", listOf(DERIVED), "filter", SCALAR,
      "expectations", listOf(EXPECTATION), "dedup", DEDUP, "process", PROCESS,
      "join_stream", JOIN_STREAM, "joins", listOf(JOIN), "aggregate", AGGREGATE,
      "sink", SINK, "trigger", TRIGGER, "schedule", SCHEDULE, "after", SCALAR_LIST,
      "maintenance", MAINTENANCE, "state_store", STATE_STORE);
  static final Shape JOB_STORE = object("url", SCALAR, "user", SCALAR, "password", SCALAR, "pool_size", SCALAR);
  static final Shape SERVICE = object("job_store", JOB_STORE, "instance_id", SCALAR, "checkin_interval", SCALAR);
  static final Shape ROOT = object(
      "warehouse", SCALAR, "storage", STORAGE, "defaults", DEFAULTS, "pipelines", listOf(PIPELINE),
      "service", SERVICE);

  private ConfigShape() {}
}
