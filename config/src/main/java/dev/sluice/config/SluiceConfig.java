package dev.sluice.config;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A whole Sluice configuration: where the warehouse is, how to reach it, and the pipelines of the bronze, silver
 * and gold layers. Load one with {@link ConfigLoader}.
 *
 * <h2>The YAML format</h2>
 *
 * <p>Keys are snake_case. Any string value may contain {@code ${env:NAME}} (the variable must be set) or
 * {@code ${env:NAME:-default}} (the default applies when NAME is unset or empty); {@code $${} writes a literal
 * {@code ${}. Intervals are a number and a unit: {@code 500 ms}, {@code 30 seconds}, {@code 5 minutes},
 * {@code 1 hour}, {@code 7 days}. The JSON Schema {@code sluice-config.schema.json} (on the classpath) describes
 * the same keys for editors.
 *
 * <pre>{@code
 * warehouse: ${env:SLUICE_WAREHOUSE:-file:///tmp/sluice-warehouse}
 * storage: {endpoint: http://127.0.0.1:9000, region: us-east-1, path_style: true,
 *           access_key_id: ${env:AWS_ACCESS_KEY_ID}, secret_access_key: ${env:AWS_SECRET_ACCESS_KEY}}
 * defaults: {trigger: available_now, max_files_per_trigger: 100}
 * pipelines:
 *   - name: orders_bronze
 *     layer: bronze
 *     source: {format: json, path: ${env:ORDERS_INPUT:-examples/orders/data/input}}
 *     sink: {table: bronze/orders}
 *   - name: orders_silver
 *     layer: silver
 *     source: {pipeline: orders_bronze}
 *     expectations: [{name: positive_amount, condition: "amount > 0", action: quarantine}]
 *     dedup: {keys: [order_id, updated_at], watermark: {column: event_time, delay: 30 minutes}}
 *     sink: {table: silver/orders, merge: {keys: [order_id], sequence_by: updated_at}}
 *   - name: revenue_gold
 *     layer: gold
 *     source: {pipeline: orders_silver}
 *     joins: [{table: silver/customers, on: [customer_id], type: left}]
 *     aggregate:
 *       group_by: [tier]
 *       window: {column: event_time, size: 1 minute}
 *       measures: ["sum(amount) AS revenue", "count(*) AS orders"]
 *     sink: {table: gold/revenue}
 * }</pre>
 *
 * <h2>Top level</h2>
 * <ul>
 *   <li>{@code warehouse} (required): {@code file:///absolute/path} or {@code s3://bucket[/prefix]}. Tables are
 *       paths under it.
 *   <li>{@code storage}: S3 settings. {@code endpoint} (http(s) URL), {@code region}, {@code path_style}
 *       (boolean, default false), {@code access_key_id}, {@code secret_access_key}, {@code session_token}.
 *       Credentials must be exactly {@code ${env:NAME}}: a literal value, or a reference with a default, is
 *       refused so that no secret is ever stored in the file. Give both keys or neither (then the AWS default
 *       credential chain applies). {@code connection_timeout} (default 5 seconds), {@code socket_timeout}
 *       (default 15 seconds: no byte of an answer for that long) and {@code attempt_timeout} (default 60 seconds
 *       for one HTTP attempt) are intervals; a request that times out is retried (with a warning) and then fails
 *       naming the endpoint and the timeout.
 *   <li>{@code defaults}: {@code trigger} (see below; default {@code available_now}),
 *       {@code max_files_per_trigger} (integer &ge; 1, added as the engine option {@code maxFilesPerTrigger}
 *       to every source that does not set it), {@code min_batches_to_retain} (integer &ge; 1, default 100:
 *       checkpoint batches kept).
 *   <li>{@code pipelines} (required, at least one): the list below.
 *   <li>{@code service}: the cluster store of {@code sluice serve} ({@link ServiceConfig}). {@code job_store}
 *       (required): {@code url} (required, {@code jdbc:postgresql://host:port/db}), {@code user}, {@code password}
 *       (only {@code ${env:NAME}}), {@code pool_size} (integer &ge; 2, default 8); {@code instance_id} (this
 *       node's unique name, {@code [A-Za-z0-9._-]}, default generated from the host name and time);
 *       {@code checkin_interval} (interval &ge; 100 ms, default 7500 ms). Without it the service schedules in
 *       memory on one node.
 * </ul>
 *
 * <h2>A pipeline</h2>
 * <ul>
 *   <li>{@code name} (required): unique, {@code [a-z][a-z0-9_]*}.
 *   <li>{@code layer} (required): {@code bronze} | {@code silver} | {@code gold}.
 *   <li>{@code source} (required).
 *       Bronze reads files: {@code format} (required: {@code json} | {@code csv} | {@code parquet}),
 *       {@code path} (required), {@code schema} (optional list of {@code {name, type, nullable}}; type is a
 *       Delta type name: string, long, integer, short, byte, double, float, boolean, binary, date, timestamp,
 *       timestamp_ntz, decimal(p,s); nullable defaults to true; without a schema it is inferred),
 *       {@code schema_evolution} ({@code addNewColumns} | {@code rescue} (default) | {@code failOnNewColumns}).
 *       Silver and gold read a Delta table: exactly one of {@code pipeline} (an upstream pipeline: a silver
 *       pipeline must name a bronze one, a gold pipeline a silver one) or {@code table} (relative to the
 *       warehouse, or an absolute file:/// or s3:// URI); {@code format} may only be {@code delta}.
 *       Every layer: {@code options}, a mapping of engine options passed through as strings.
 *   <li>{@code process} (silver, {@link ProcessConfig}): {@code class} (required: a {@code StatefulProcessor} or
 *       {@code FlatMapGroupsWithStateFunction} implementing {@code ProcessorPlugin}, from {@code --jars} or the
 *       {@code plugins/} folder beside the config), {@code keys} (required), {@code output_mode} ({@code append}
 *       (default) | {@code update}), {@code timeout} ({@code none} (default) | {@code processing_time} |
 *       {@code event_time}, which needs {@code watermark}), {@code options} (given to a {@code Map} constructor),
 *       {@code watermark}.
 *   <li>{@code join_stream} (silver, not with process, {@link StreamJoinConfig}): one of {@code pipeline} or
 *       {@code table} (the right side, read as a stream), {@code options}, {@code keys} (required, named alike),
 *       {@code type} ({@code inner} (default) | {@code left_outer} | {@code right_outer} | {@code full_outer} |
 *       {@code left_semi}), {@code within} (interval) or {@code time_condition} (SQL over aliases {@code l},
 *       {@code r}), {@code left_watermark}, {@code right_watermark}. {@code within} needs both watermarks; outer and
 *       semi joins need both watermarks and a time bound.
 *   <li>{@code joins} (gold): a list of stream-static joins. Each names one of {@code table}, {@code pipeline},
 *       or {@code path} with {@code format} (json | csv | parquet | delta) and optional {@code schema} and
 *       {@code options}; {@code on} (required): key columns named alike on both sides; {@code type}:
 *       {@code inner} (default) | {@code left}; {@code refresh}: {@code every_batch} (default) | {@code once}.
 *   <li>{@code columns} (silver, gold): derived or cast columns in order, {@code {name, expr}} with a SQL
 *       expression.
 *   <li>{@code filter} (silver, gold): a SQL condition; rows that fail it are left out.
 *   <li>{@code expectations} (silver): {@code {name, condition, action}}, names unique; action {@code warn}
 *       (default) | {@code drop} | {@code quarantine} | {@code fail}.
 *   <li>{@code dedup} (silver): {@code keys} (required list of columns), {@code watermark}
 *       ({@code {column, delay, max_future_skew}}, optional; {@code max_future_skew} default {@code 1 day}).
 *   <li>{@code aggregate} (gold, required there): {@code group_by} (columns), {@code window}
 *       ({@code {type, column, size, slide}}; slide defaults to size, i.e. tumbling; 0 &lt; slide &le; size;
 *       {@code type} {@code tumbling} | {@code sliding} | {@code session}; a session window is
 *       {@code {type: session, column, gap | gap_expr}}, append mode only, see {@link SessionWindowConfig}),
 *       {@code measures} (required: {@code "<count|sum|avg|min|max>(<expr>) AS <name>"}), {@code output_mode}
 *       ({@code update} (default) | {@code complete} | {@code append}), {@code watermark}
 *       ({@code {column, delay, max_future_skew}}). At least one of group_by or window. Append requires a window and a watermark
 *       on the window's column.
 *   <li>{@code sink} (required): {@code table} (required, relative to the warehouse, unique across pipelines),
 *       {@code partition_by} (columns), {@code merge} (silver only, and required there): {@code keys}
 *       (required), {@code sequence_by} (the newest version wins; required for SCD 2), {@code delete_when}
 *       (SQL condition), {@code scd} ({@code 1} (default) | {@code 2}); {@code properties} (silver only): Delta
 *       table properties the table is created with, e.g. {@code {delta.enableDeletionVectors: "true"}} (a boolean
 *       there), ignored for a table that already exists.
 *   <li>{@code trigger}: {@code available_now} | {@code once} | {@code {processing_time: <interval>}};
 *       default the {@code defaults} trigger.
 *   <li>{@code schedule}: {@code {cron: "<Quartz cron, 6 or 7 fields>"}} or {@code {every: <interval>}}.
 *   <li>{@code after}: names of pipelines this one runs after. Together with {@code source.pipeline}, join
 *       pipelines and {@code join_stream.pipeline} these must name existing pipelines and form no cycle.
 * </ul>
 *
 * <p>Transforms run in this order: process or join_stream, joins, columns, filter, expectations, dedup, aggregate. Unknown keys are
 * refused with the closest valid key; every problem is reported at once as
 * {@code pipelines[2].sink.merge.keys: required (line 41)}.
 */
public record SluiceConfig(URI warehouse, StorageConfig storage, Defaults defaults, List<PipelineConfig> pipelines,
    Optional<ServiceConfig> service) {
  public SluiceConfig {
    Objects.requireNonNull(warehouse, "warehouse");
    Objects.requireNonNull(storage, "storage");
    Objects.requireNonNull(defaults, "defaults");
    Objects.requireNonNull(service, "service");
    pipelines = List.copyOf(pipelines);
  }

  /** A configuration without a {@code service:} section (the service keeps its schedule in memory). */
  public SluiceConfig(URI warehouse, StorageConfig storage, Defaults defaults, List<PipelineConfig> pipelines) {
    this(warehouse, storage, defaults, pipelines, Optional.empty());
  }

  /** The pipeline of that name. */
  public Optional<PipelineConfig> pipeline(String name) {
    return pipelines.stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /** True when the warehouse is on S3. */
  public boolean isS3() {
    return "s3".equals(warehouse.getScheme());
  }

  /**
   * Where a table lives: a relative table ({@code silver/orders}) under the warehouse, an absolute
   * {@code file:} or {@code s3:} URI as written.
   */
  public URI tableUri(String table) {
    if (table.contains("://") || table.startsWith("file:")) {
      return URI.create(table);
    }
    String base = warehouse.toString();
    return URI.create(base.endsWith("/") ? base + table : base + "/" + table);
  }
}
