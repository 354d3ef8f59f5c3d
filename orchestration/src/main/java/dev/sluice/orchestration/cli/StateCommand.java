package dev.sluice.orchestration.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StateReader;
import dev.sluice.orchestration.Sessions;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code sluice state}: the state a stateful pipeline keeps in its checkpoint, as Spark's {@code statestore} and
 * {@code state-metadata} sources show it.
 */
@Command(name = "state", header = "Show the state a stateful pipeline keeps.",
    description = "An operator's state after a batch (key columns, value columns), the changes a range of batches "
    + "made to it (--changes), or with --metadata the operators: name, provider, key and value schemas, and the "
    + "batches whose state can be read.")
final class StateCommand implements Callable<Integer> {
  @ParentCommand
  SluiceCli root;

  @Parameters(index = "0", paramLabel = "<config>", description = "The pipelines YAML file.")
  Path config;

  @Parameters(index = "1", paramLabel = "<pipeline>", description = "A stateful pipeline of the config.")
  String pipeline;

  @Option(names = "--operator", paramLabel = "N", description = "The operator id (default ${DEFAULT-VALUE}).")
  int operator;

  @Option(names = "--batch", paramLabel = "N", description = "The state after batch N (default: the latest).")
  Long batch;

  @Option(names = "--changes", paramLabel = "A..B", description = "The changes batches A to B made (both included).")
  String changes;

  @Option(names = "--format", paramLabel = "table|json", description = "Output format (default ${DEFAULT-VALUE}).")
  String format = "table";

  @Option(names = "--metadata", description = "List the operators instead of the state.")
  boolean metadata;

  @Option(names = {"-n", "--limit"}, paramLabel = "N", description = "At most N rows (default: all).")
  long limit = Long.MAX_VALUE;

  @Override
  public Integer call() {
    if (!format.equals("table") && !format.equals("json")) {
      throw CliException.usage("--format must be table or json, got '" + format + "'");
    }
    if (batch != null && changes != null) {
      throw CliException.usage("give --batch or --changes, not both");
    }
    SluiceConfig c = Pipelines.load(config);
    PipelineConfig p = c.pipeline(pipeline).orElseThrow(() -> CliException.usage("No pipeline named '" + pipeline
        + "' in " + config + "; its pipelines are " + c.pipelines().stream().map(PipelineConfig::name).toList()));
    try (SluiceSession session = Sessions.forConfig(c)) {
      StateReader reader = session.readState(Pipelines.checkpointUri(c, p)).operator(operator);
      if (metadata) {
        printMetadata(reader);
        return ExitCodes.OK;
      }
      if (changes != null) {
        long[] range = range(changes);
        reader.changes(range[0], range[1]);
      } else if (batch != null) {
        reader.batch(batch);
      }
      try {
        print(reader);
      } catch (IllegalArgumentException | IllegalStateException e) {
        throw CliException.failed(e.getMessage());
      }
    }
    return ExitCodes.OK;
  }

  private void printMetadata(StateReader reader) {
    Terminal t = root.terminal();
    List<StateReader.OperatorState> operators = reader.metadata();
    if (operators.isEmpty()) {
      throw CliException.failed("Pipeline " + pipeline + " keeps no state in " + reader.checkpoint() + ": it has no "
          + "stateful step (dedup, aggregate), or it has not run yet");
    }
    if (format.equals("json")) {
      for (StateReader.OperatorState o : operators) {
        ObjectNode n = Values.JSON.createObjectNode();
        n.put("operatorId", o.metadata().operatorId());
        n.put("operatorName", o.metadata().operatorName());
        n.put("provider", o.metadata().provider().optionName());
        n.put("numPartitions", o.metadata().numPartitions());
        n.put("keySchema", o.metadata().schema().keySchema().toJson());
        n.put("valueSchema", o.metadata().schema().valueSchema().toJson());
        o.earliestBatch().ifPresent(b -> n.put("minBatchId", b));
        o.latestBatch().ifPresent(b -> n.put("maxBatchId", b));
        t.result(n.toString());
      }
      return;
    }
    TextTable out = new TextTable(List.of("operator", "name", "provider", "keys", "values", "batches"));
    for (StateReader.OperatorState o : operators) {
      out.add(List.of(Integer.toString(o.metadata().operatorId()), o.metadata().operatorName(),
          o.metadata().provider().optionName(), columns(o.metadata().schema().keySchema()),
          columns(o.metadata().schema().valueSchema()),
          o.latestBatch().isEmpty() ? "-" : o.earliestBatch().get() + ".." + o.latestBatch().get()));
    }
    out.render().forEach(t::result);
  }

  private void print(StateReader reader) {
    Terminal t = root.terminal();
    StructType schema = reader.schema();
    TextTable table = format.equals("table") ? new TextTable(schema.fieldNames()) : null;
    long n = 0;
    try (CloseableIterator<Row> rows = reader.iterator()) {
      while (rows.hasNext() && n < limit) {
        Row r = rows.next();
        n++;
        if (table == null) {
          t.result(Values.row(r, schema).toString());
        } else {
          List<String> cells = new ArrayList<>();
          for (int i = 0; i < schema.fields().size(); i++) {
            cells.add(Values.text(r.get(i), schema.field(i).type()));
          }
          table.add(cells);
        }
      }
    }
    if (table != null) {
      table.render().forEach(t::result);
      t.info(n + " row" + (n == 1 ? "" : "s"));
    }
  }

  private static String columns(StructType schema) {
    List<String> out = new ArrayList<>();
    schema.fields().forEach(f -> out.add(f.name() + " " + f.type()));
    return String.join(", ", out);
  }

  static long[] range(String text) {
    String[] parts = text.split("\\.\\.", -1);
    try {
      if (parts.length == 2) {
        long a = Long.parseLong(parts[0].trim());
        long b = Long.parseLong(parts[1].trim());
        if (a >= 0 && b >= a) {
          return new long[] {a, b};
        }
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw CliException.usage("--changes takes a batch range A..B with 0 <= A <= B, e.g. --changes 3..5; got '"
        + text + "'");
  }
}
