package dev.sluice.orchestration.cli;

import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.table.ScanBuilder;
import dev.sluice.table.Snapshot;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code sluice read}: rows of a table (or of an older version of it), filtered with SQL, as a table, CSV or JSON. */
@Command(name = "read", header = "Print rows of a table (filter, columns, time travel).",
    description =
    "Print rows of a table: --where filters with a SQL condition (pushed down to skip files when it "
    + "can be), --version/--timestamp read an older snapshot (time travel).")
final class ReadCommand implements Callable<Integer> {
  enum Format { table, csv, json }

  @ParentCommand
  SluiceCli root;

  @Parameters(index = "0", paramLabel = "<table>",
      description = "A table of the --config file (e.g. gold/revenue) or a path / file: / s3: URI.")
  String table;

  @Option(names = {"-c", "--config"}, paramLabel = "<file>", description = "The config whose table names to use.")
  Path config;

  @Option(names = {"-w", "--where"}, paramLabel = "EXPR", description = "A SQL condition, e.g. \"tier = 'premium'\".")
  String where;

  @Option(names = "--columns", paramLabel = "a,b", split = ",", description = "Only these columns, in this order.")
  List<String> columns = new ArrayList<>();

  @ArgGroup(exclusive = true)
  AsOf asOf;

  /** Time travel: one of version or timestamp. */
  static final class AsOf {
    @Option(names = "--version", paramLabel = "N", description = "Read version N.")
    Long version;

    @Option(names = "--timestamp", paramLabel = "T",
        description = "Read the version current at T (2024-01-01T10:00:00Z, '2024-01-01 10:00:00' UTC, or 2024-01-01).")
    String timestamp;
  }

  @Option(names = {"-n", "--limit"}, paramLabel = "N", description = "At most N rows (default ${DEFAULT-VALUE}; 0: all).")
  int limit = 20;

  @Option(names = {"-f", "--format"}, paramLabel = "FORMAT",
      description = "table, csv or json (JSON lines, one object per row); default ${DEFAULT-VALUE}.")
  Format format = Format.table;

  @Override
  public Integer call() {
    if (limit < 0) {
      throw CliException.usage("--limit must be 0 (all rows) or more, got " + limit);
    }
    Terminal t = root.terminal();
    try (TableRef ref = TableRef.open(table, config)) {
      Snapshot snapshot = snapshot(ref);
      StructType schema = snapshot.schema();
      List<String> selected = columns.isEmpty() ? schema.fieldNames() : columns;
      for (String c : selected) {
        if (schema.field(c).isEmpty()) {
          throw CliException.usage("No column '" + c + "' in " + ref.label() + " (version " + snapshot.version()
              + "); its columns are " + schema.fieldNames() + ". Fix --columns.");
        }
      }
      // Read the selected columns plus those the condition needs, in table order.
      List<String> read = new ArrayList<>();
      BoundExpression condition = null;
      Optional<Predicate> pushed = Optional.empty();
      if (where != null) {
        condition = Expressions.bindPredicate(where, schema);
        pushed = Expressions.toTablePredicate(where, schema);
      }
      for (String name : schema.fieldNames()) {
        if (selected.contains(name) || (condition != null && condition.referencedColumns().contains(name))) {
          read.add(name);
        }
      }
      StructType readSchema = new StructType(read.stream().map(n -> schema.field(n).orElseThrow()).toList());
      if (condition != null) {
        condition = Expressions.bindPredicate(where, readSchema);
      }
      ScanBuilder scan = snapshot.scan().select(read);
      pushed.ifPresent(scan::filter);
      int[] project = selected.stream().mapToInt(readSchema::indexOf).toArray();
      StructType outSchema = new StructType(selected.stream().map(n -> schema.field(n).orElseThrow()).toList());
      RowPrinter printer = new RowPrinter(t, format, outSchema);
      EvalContext context = EvalContext.of(Instant.now());
      long shown = 0;
      boolean more = false;
      try (CloseableIterator<Row> rows = scan.build().rows()) {
        while (rows.hasNext()) {
          Row r = rows.next();
          if (condition != null && !condition.test(r, context)) {
            continue;
          }
          if (limit > 0 && shown == limit) {
            more = true;
            break;
          }
          Object[] values = new Object[project.length];
          for (int i = 0; i < project.length; i++) {
            values[i] = r.get(project[i]);
          }
          printer.add(Row.of(values));
          shown++;
        }
      }
      printer.finish();
      if (format == Format.table) {
        t.info("(" + Values.count(shown) + (shown == 1 ? " row" : " rows") + (more ? ", more with --limit" : "")
            + "; " + ref.label() + " version " + snapshot.version() + ")");
      }
    }
    return ExitCodes.OK;
  }

  private Snapshot snapshot(TableRef ref) {
    if (asOf != null && asOf.version != null) {
      long latest = ref.table().latestVersion().orElse(-1);
      if (asOf.version < 0 || asOf.version > latest) {
        throw CliException.usage("--version " + asOf.version + " does not exist: " + ref.label() + " has versions 0 to "
            + latest + " (older ones may be gone after log cleanup)");
      }
      return ref.table().snapshotAt(asOf.version);
    }
    if (asOf != null && asOf.timestamp != null) {
      return ref.table().snapshotAsOf(instant(asOf.timestamp));
    }
    return ref.table().latestSnapshot();
  }

  static Instant instant(String text) {
    String s = text.trim();
    try {
      if (s.matches("\\d{4}-\\d{2}-\\d{2}")) {
        return LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant();
      }
      s = s.replace(' ', 'T');
      return s.endsWith("Z") || s.matches(".*[+-]\\d{2}:\\d{2}$") ? java.time.OffsetDateTime.parse(s).toInstant()
          : Instant.parse(s + "Z");
    } catch (DateTimeParseException e) {
      throw CliException.usage("--timestamp '" + text + "' is not a time: write 2024-01-01T10:00:00Z, "
          + "'2024-01-01 10:00:00' (UTC) or 2024-01-01");
    }
  }

  /** Writes rows in the chosen format; the table format needs every row first, to align columns. */
  private static final class RowPrinter {
    private final Terminal terminal;
    private final Format format;
    private final StructType schema;
    private final TextTable table;

    RowPrinter(Terminal terminal, Format format, StructType schema) {
      this.terminal = terminal;
      this.format = format;
      this.schema = schema;
      this.table = format == Format.table ? new TextTable(schema.fieldNames()) : null;
      if (format == Format.csv) {
        terminal.result(String.join(",", schema.fieldNames().stream().map(Values::csv).toList()));
      }
    }

    void add(Row r) {
      switch (format) {
        case json -> terminal.result(Values.row(r, schema).toString());
        case csv -> {
          List<String> cells = new ArrayList<>();
          for (int i = 0; i < schema.size(); i++) {
            cells.add(Values.csv(Values.text(r.get(i), schema.field(i).type())));
          }
          terminal.result(String.join(",", cells));
        }
        case table -> {
          List<String> cells = new ArrayList<>();
          for (int i = 0; i < schema.size(); i++) {
            StructField f = schema.field(i);
            String text = Values.text(r.get(i), f.type());
            cells.add(r.get(i) == null ? "null" : text);
          }
          table.add(cells);
        }
        default -> throw new IllegalStateException(format.toString());
      }
    }

    void finish() {
      if (table != null) {
        table.render().forEach(terminal::result);
      }
    }
  }
}
