package dev.sluice.ingestion.internal.plan;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code select} / {@code selectExpr} / {@code withColumn} / {@code drop}: each output column is an
 * SQL expression over the input row ({@code amount * 2 AS doubled}); plain column references are
 * copied without evaluation.
 */
public final class Projection implements Transform {
  private static final Pattern ALIAS = Pattern.compile("(?is)^(.*?\\S)\\s+(?:AS\\s+)?(`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)$");

  private final StructType schema;
  private final int[] copy;
  private final BoundExpression[] computed;
  private final String description;

  private Projection(StructType schema, int[] copy, BoundExpression[] computed, String description) {
    this.schema = schema;
    this.copy = copy;
    this.computed = computed;
    this.description = description;
  }

  /** {@code select(exprs)}: each an expression with an optional alias. */
  public static TransformSpec select(List<String> expressions) {
    return input -> {
      List<Column> columns = new ArrayList<>();
      for (String e : expressions) {
        columns.add(column(e, input));
      }
      return build(columns, "Project" + expressions);
    };
  }

  /** {@code withColumn(name, expr)}: replaces or appends a column. */
  public static TransformSpec withColumn(String name, String expression) {
    return input -> {
      List<Column> columns = new ArrayList<>();
      boolean replaced = false;
      BoundExpression bound = Expressions.bind(expression, input);
      for (int i = 0; i < input.size(); i++) {
        StructField f = input.field(i);
        if (f.name().equalsIgnoreCase(name)) {
          columns.add(new Column(StructField.of(name, bound.type(), bound.nullable()), -1, bound));
          replaced = true;
        } else {
          columns.add(new Column(f, i, null));
        }
      }
      if (!replaced) {
        columns.add(new Column(StructField.of(name, bound.type(), bound.nullable()), -1, bound));
      }
      return build(columns, "WithColumn[" + name + " = " + expression + "]");
    };
  }

  /** {@code drop(names)}: every column but these (unknown names are ignored, as in Spark). */
  public static TransformSpec drop(List<String> names) {
    return input -> {
      List<Column> columns = new ArrayList<>();
      for (int i = 0; i < input.size(); i++) {
        StructField f = input.field(i);
        if (names.stream().noneMatch(n -> n.equalsIgnoreCase(f.name()))) {
          columns.add(new Column(f, i, null));
        }
      }
      return build(columns, "Drop" + names);
    };
  }

  private static Column column(String text, StructType input) {
    String trimmed = text.trim();
    int direct = input.indexOf(unquote(trimmed));
    if (direct >= 0) {
      return new Column(input.field(direct), direct, null);
    }
    Matcher m = ALIAS.matcher(trimmed);
    String expression = trimmed;
    String alias = null;
    if (m.matches() && !endsInsideLiteral(trimmed)) {
      expression = m.group(1);
      alias = unquote(m.group(2));
    }
    BoundExpression bound;
    try {
      bound = Expressions.bind(expression, input);
    } catch (IllegalArgumentException first) {
      if (alias == null) {
        throw first;
      }
      // "a b" may be a misspelt expression rather than an alias: report the whole text.
      bound = Expressions.bind(trimmed, input);
      alias = null;
    }
    String name = alias != null ? alias : bound.sql();
    int plain = input.indexOf(unquote(expression.trim()));
    if (plain >= 0) {
      return new Column(new StructField(name, input.field(plain).type(), input.field(plain).nullable(),
          input.field(plain).metadata()), plain, null);
    }
    return new Column(StructField.of(name, bound.type(), bound.nullable()), -1, bound);
  }

  private static boolean endsInsideLiteral(String text) {
    return text.endsWith("'");
  }

  private static String unquote(String name) {
    return name.length() > 1 && name.startsWith("`") && name.endsWith("`") ? name.substring(1, name.length() - 1) : name;
  }

  private static Projection build(List<Column> columns, String description) {
    List<StructField> fields = new ArrayList<>();
    int[] copy = new int[columns.size()];
    BoundExpression[] computed = new BoundExpression[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      Column c = columns.get(i);
      fields.add(c.field());
      copy[i] = c.source();
      computed[i] = c.expression();
    }
    return new Projection(new StructType(fields), copy, computed, description);
  }

  private record Column(StructField field, int source, BoundExpression expression) {}

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Batch apply(Batch input, BatchInfo info) {
    EvalContext context = new EvalContext(info.batchTimestamp());
    Batch.Builder out = Batch.builder(schema);
    for (Row r : input.rows()) {
      Object[] values = new Object[copy.length];
      for (int i = 0; i < copy.length; i++) {
        values[i] = copy[i] >= 0 ? r.get(copy[i]) : computed[i].eval(r, context);
      }
      out.add(Row.of(values));
    }
    return out.build();
  }

  @Override
  public String describe() {
    return description;
  }
}
