package dev.sluice.orchestration.validate;

import dev.sluice.bronze.BronzePipeline;
import dev.sluice.config.AggregateConfig;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ConfigCheck;
import dev.sluice.config.JoinConfig;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.expr.ExpressionException;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.orchestration.PipelineGraph;
import dev.sluice.silver.SilverPipeline;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Binds every expression and column name of a config against the schema its pipeline will see, derived from
 * the config alone (bronze: the declared source schema plus lineage columns; silver: bronze's table after its
 * columns; gold: silver's table and change columns plus the joined dimensions), and checks source options
 * against what each format accepts. A schema that is only known once data arrives (bronze without
 * {@code source.schema}, a join on a table no pipeline writes) is noted, and what depends on it is not bound.
 */
public final class PlanCheck implements ConfigCheck {
  private static final Pattern MEASURE = Pattern.compile(
      "\\s*(count|sum|avg|min|max)\\s*\\((.*)\\)\\s+as\\s+[A-Za-z_][A-Za-z0-9_]*\\s*", Pattern.CASE_INSENSITIVE);
  private static final List<StructField> CHANGE_COLUMNS = List.of(StructField.of("_change_type", PrimitiveType.STRING),
      StructField.of("_commit_version", PrimitiveType.LONG), StructField.of("_commit_timestamp", PrimitiveType.TIMESTAMP));

  private final SluiceSession session;
  private final List<String> notes = new ArrayList<>();

  public PlanCheck(SluiceSession session) {
    this.session = session;
  }

  /** What could not be checked, one sentence each (after {@link #check}). */
  public List<String> notes() {
    return List.copyOf(notes);
  }

  @Override
  public void check(SluiceConfig config, Reporter reporter) {
    Map<String, Optional<StructType>> tables = new HashMap<>();
    List<PipelineConfig> all = config.pipelines();
    for (PipelineConfig p : PipelineGraph.ordered(config, List.of())) {
      Pipeline checked = new Pipeline(config, p, "pipelines[" + all.indexOf(p) + "]", reporter);
      tables.put(p.name(), switch (p.layer()) {
        case BRONZE -> checked.bronze();
        case SILVER -> checked.silver(upstream(tables, p.source().pipeline()), tables);
        case GOLD -> checked.gold(upstream(tables, p.source().pipeline()), tables);
      });
    }
  }

  private static Optional<StructType> upstream(Map<String, Optional<StructType>> tables, Optional<String> name) {
    return name.flatMap(n -> tables.getOrDefault(n, Optional.empty()));
  }

  /** The checks of one pipeline, reporting under its path. */
  private final class Pipeline {
    private final SluiceConfig config;
    private final PipelineConfig p;
    private final String path;
    private final Reporter reporter;
    private int problems;

    Pipeline(SluiceConfig config, PipelineConfig p, String path, Reporter reporter) {
      this.config = config;
      this.p = p;
      this.path = path;
      this.reporter = reporter;
    }

    Optional<StructType> bronze() {
      checkOptions(p.source().format().yamlName(), p.source().options(), path + ".source.options");
      Optional<StructType> table;
      try {
        table = BronzePipeline.tableSchema(p);
      } catch (IllegalArgumentException e) {
        problem(path + ".source.schema", e.getMessage(), "");
        return Optional.empty();
      }
      if (table.isEmpty()) {
        notes.add(p.name() + ": no source.schema, so its columns are inferred from the files at the first run;"
            + " expressions of the pipelines reading it are not checked against them");
      }
      return table;
    }

    Optional<StructType> silver(Optional<StructType> bronze, Map<String, Optional<StructType>> tables) {
      if (bronze.isEmpty()) {
        return unknown("its bronze table's schema");
      }
      if (p.joinStream().isPresent()) {
        bronze = joined(bronze.get(), p.joinStream().get(), tables);
        if (bronze.isEmpty()) {
          return Optional.empty();
        }
      }
      if (p.process().isPresent()) {
        bronze = processed(bronze.get(), p.process().get());
        if (bronze.isEmpty()) {
          return Optional.empty();
        }
      }
      StructType stage = columns(bronze.get());
      if (stage == null) {
        return Optional.empty();
      }
      p.filter().ifPresent(f -> predicate(f, stage, path + ".filter"));
      for (int i = 0; i < p.expectations().size(); i++) {
        predicate(p.expectations().get(i).condition(), stage, path + ".expectations[" + i + "].condition");
      }
      p.dedup().ifPresent(d -> {
        columnsExist(d.keys(), stage, path + ".dedup.keys");
        d.watermark().ifPresent(w -> columnExists(w.column(), stage, path + ".dedup.watermark.column"));
      });
      p.sink().merge().ifPresent(m -> {
        columnsExist(m.keys(), stage, path + ".sink.merge.keys");
        m.sequenceBy().ifPresent(s -> columnExists(s, stage, path + ".sink.merge.sequence_by"));
        m.deleteWhen().ifPresent(d -> predicate(d, stage, path + ".sink.merge.delete_when"));
      });
      columnsExist(p.sink().partitionBy(), stage, path + ".sink.partition_by");
      if (problems > 0) {
        return Optional.empty();
      }
      try {
        return Optional.of(SilverPipeline.tableSchema(p, bronze.get()));
      } catch (IllegalArgumentException e) {
        problem(path + ".sink.merge", e.getMessage(), "");
        return Optional.empty();
      }
    }

    /** The schema of the joined rows, after checking keys and watermark columns on each side; empty if unknown. */
    private Optional<StructType> joined(StructType left, dev.sluice.config.StreamJoinConfig join,
        Map<String, Optional<StructType>> tables) {
      String at = path + ".join_stream";
      Optional<StructType> right = upstream(tables, join.pipeline());
      if (right.isEmpty()) {
        return unknown("the schema of join_stream");
      }
      int found = problems;
      columnsExist(join.keys(), left, at + ".keys");
      columnsExist(join.keys(), right.get(), at + ".keys");
      join.leftWatermark().ifPresent(w -> columnExists(w.column(), left, at + ".left_watermark.column"));
      join.rightWatermark().ifPresent(w -> columnExists(w.column(), right.get(), at + ".right_watermark.column"));
      return problems > found ? Optional.empty() : Optional.of(SilverPipeline.joinedSchema(join, left, right.get()));
    }

    /** The processor's output schema, after checking its keys and watermark against its input; empty on a problem. */
    private Optional<StructType> processed(StructType input, dev.sluice.config.ProcessConfig process) {
      int found = problems;
      columnsExist(process.keys(), input, path + ".process.keys");
      process.watermark().ifPresent(w -> columnExists(w.column(), input, path + ".process.watermark.column"));
      try {
        StructType out = SilverPipeline.processor(session, config, p, process).outputSchema();
        return problems > found ? Optional.empty() : Optional.of(out);
      } catch (dev.sluice.config.ConfigException e) {
        e.problems().forEach(x -> problem(x.path(), x.message(), x.hint()));
        return Optional.empty();
      }
    }

    Optional<StructType> gold(Optional<StructType> silver, Map<String, Optional<StructType>> tables) {
      if (silver.isEmpty()) {
        return unknown("its silver table's schema");
      }
      StructType input = silver.get();
      for (StructField f : CHANGE_COLUMNS) {
        input = input.add(f.name(), f.type());
      }
      for (int j = 0; j < p.joins().size(); j++) {
        JoinConfig join = p.joins().get(j);
        String at = path + ".joins[" + j + "]";
        Optional<StructType> dimension = join.pipeline().isPresent() ? upstream(tables, join.pipeline())
            : join.schema().isEmpty() ? Optional.empty() : Optional.of(declared(join.schema()));
        if (join.path().isPresent()) {
          checkOptions(join.format().yamlName(), join.options(), at + ".options");
        }
        if (dimension.isEmpty()) {
          return unknown("the schema of " + at.substring(path.length() + 1));
        }
        columnsExist(join.on(), input, at + ".on");
        columnsExist(join.on(), dimension.get(), at + ".on");
        for (StructField f : dimension.get().fields()) {
          if (input.indexOf(f.name()) < 0) {
            input = input.add(f.name(), f.type());
          }
        }
      }
      StructType stage = columns(input);
      if (stage == null) {
        return Optional.empty();
      }
      p.filter().ifPresent(f -> predicate(f, stage, path + ".filter"));
      p.aggregate().ifPresent(a -> aggregate(a, stage));
      return Optional.empty(); // nothing reads a gold table in a config
    }

    private void aggregate(AggregateConfig a, StructType stage) {
      String at = path + ".aggregate";
      columnsExist(a.groupBy(), stage, at + ".group_by");
      a.window().ifPresent(w -> columnExists(w.column(), stage, at + ".window.column"));
      a.sessionWindow().ifPresent(w -> {
        columnExists(w.column(), stage, at + ".window.column");
        w.gapExpression().ifPresent(e -> expression(e, stage, at + ".window.gap_expr", false));
      });
      a.watermark().ifPresent(w -> columnExists(w.column(), stage, at + ".watermark.column"));
      for (int i = 0; i < a.measures().size(); i++) {
        Matcher m = MEASURE.matcher(a.measures().get(i));
        String argument = m.matches() ? m.group(2).strip() : "*";
        if (!argument.equals("*")) {
          expression(argument, stage, at + ".measures[" + i + "]", false);
        }
      }
    }

    /** The schema after the derived columns, each bound to the schema before it; null on a problem. */
    private StructType columns(StructType input) {
      int found = problems;
      for (int i = 0; i < p.columns().size(); i++) {
        StructType before = SilverPipeline.stageSchema(p.name(), input, p.columns().subList(0, i));
        expression(p.columns().get(i).expr(), before, path + ".columns[" + i + "].expr", false);
      }
      return problems > found ? null : SilverPipeline.stageSchema(p.name(), input, p.columns());
    }

    private void predicate(String sql, StructType schema, String at) {
      expression(sql, schema, at, true);
    }

    private void expression(String sql, StructType schema, String at, boolean predicate) {
      try {
        if (predicate) {
          Expressions.bindPredicate(sql, schema);
        } else {
          Expressions.bind(sql, schema);
        }
      } catch (ExpressionException e) {
        problem(at, "`" + sql + "`: " + e.getMessage(), "");
      }
    }

    private void columnsExist(List<String> columns, StructType schema, String at) {
      for (int i = 0; i < columns.size(); i++) {
        columnExists(columns.get(i), schema, at + "[" + i + "]");
      }
    }

    private void columnExists(String column, StructType schema, String at) {
      if (schema.indexOf(column) < 0) {
        problem(at, "no column `" + column + "`" + reporter.didYouMean(column, schema.fieldNames()),
            "the columns here are " + String.join(", ", schema.fieldNames()));
      }
    }

    private void checkOptions(String format, Map<String, String> options, String at) {
      java.util.Set<String> accepted = session.sourceOptions(format);
      java.util.Set<String> prefixes = session.sourceOptionPrefixes(format);
      for (String key : options.keySet()) {
        String lower = key.toLowerCase(Locale.ROOT);
        if (!accepted.isEmpty() && !accepted.contains(lower) && prefixes.stream().noneMatch(lower::startsWith)) {
          problem(at + "." + key, "unknown option `" + key + "` for format " + format
              + reporter.didYouMean(key, accepted), "options accepted here: " + String.join(", ", accepted));
        }
      }
    }

    private Optional<StructType> unknown(String what) {
      notes.add(p.name() + ": " + what + " is known only at run time, so its columns and expressions are not"
          + " checked");
      return Optional.empty();
    }

    private void problem(String at, String message, String hint) {
      problems++;
      reporter.problem(at, message, hint);
    }
  }

  private static StructType declared(List<ColumnSpec> columns) {
    List<StructField> fields = new ArrayList<>();
    for (ColumnSpec c : columns) {
      fields.add(StructField.of(c.name(), StructType.fromDdl("c " + c.type()).field(0).type()));
    }
    return new StructType(fields);
  }
}
