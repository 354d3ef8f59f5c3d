package dev.sluice.silver;

import dev.sluice.config.Expectation;
import dev.sluice.config.ExpectationAction;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchTransformer;
import dev.sluice.ingestion.RowLedger;
import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.ingestion.expr.ExpressionException;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.StringJoiner;

/**
 * Checks every row against the pipeline's expectations. A rule is broken when its condition is false or
 * NULL (unknown is not a pass). A row that breaks several rules gets the strongest action among them
 * (fail > quarantine > drop > warn) and carries the names of all of them when quarantined. Counts
 * {@code expectation.<name>.failed} for every rule (a row counts once for each rule it broke) and the
 * ledger's dropped and quarantined rows; quarantined rows are kept in the batch state for the sink.
 */
final class ExpectationStep implements BatchTransformer {
  private final String pipeline;
  private final List<Expectation> rules;
  private final BatchStates states;
  private final List<BoundExpression> bound = new ArrayList<>();
  /**
   * Per rule, the column it checks when it is just {@code <column> IS NOT NULL}, else -1: such a rule is answered
   * from the batch's null bits ({@link Batch#forEachRowWithNullIn}) without a value made per row (a data-quality
   * rule as common as it is cheap: evaluated on rows, it made the order id a string per row only to test it).
   */
  private int[] notNullColumn = new int[0];
  private StructType schema;
  /** The columns the rules other than the null-bit ones read, or null to read whole rows. */
  private int[] read;
  /** The columns every rule reads, or null: for a spilled batch, whose null bits would be one more pass on disk. */
  private int[] readAll;
  private StructType quarantineSchema;

  ExpectationStep(String pipeline, List<Expectation> rules, BatchStates states) {
    this.pipeline = pipeline;
    this.rules = List.copyOf(rules);
    this.states = states;
  }

  @Override
  public StructType outputSchema(StructType input) {
    bound.clear();
    for (Expectation rule : rules) {
      try {
        bound.add(Expressions.bindPredicate(rule.condition(), input));
      } catch (ExpressionException e) {
        throw new IllegalArgumentException("Pipeline '" + pipeline + "': expectation '" + rule.name() + "' has an"
            + " invalid condition '" + rule.condition() + "': " + e.getMessage(), e);
      }
    }
    this.schema = input;
    this.quarantineSchema = QuarantineRows.schema(input);
    notNullColumn = new int[rules.size()];
    List<BoundExpression> rowRules = new ArrayList<>();
    for (int i = 0; i < rules.size(); i++) {
      notNullColumn[i] = notNullColumn(rules.get(i).condition(), input);
      if (notNullColumn[i] < 0) {
        rowRules.add(bound.get(i));
      }
    }
    // The rules read only their columns, so a spilled batch decodes only those (all, if one isn't found by name).
    this.read = columnsOf(rowRules, input);
    this.readAll = columnsOf(bound, input);
    return input;
  }

  private static int[] columnsOf(List<BoundExpression> rules, StructType input) {
    int[] columns = rules.stream().flatMap(b -> b.referencedColumns().stream()).distinct()
        .mapToInt(input::indexOf).toArray();
    return java.util.Arrays.stream(columns).allMatch(c -> c >= 0) ? columns : null;
  }

  /** The column of a condition that is exactly {@code <column> IS NOT NULL}, or -1. */
  private static int notNullColumn(String condition, StructType input) {
    try {
      return Expressions.toTablePredicate(condition, input)
          .map(p -> p instanceof Predicate.IsNotNull n ? input.indexOf(n.column()) : -1).orElse(-1);
    } catch (ExpressionException e) {
      return -1; // bound already: evaluated row by row as before
    }
  }

  @Override
  public Batch apply(Batch batch, Context context) {
    EvalContext ctx = EvalContext.of(context.batchTimestamp());
    long[] failed = new long[rules.size()];
    BitSet kept = new BitSet(batch.size());
    BitSet[] nullIn = new BitSet[rules.size()];
    boolean rowRules = false;
    boolean spilled = batch.spilled();
    for (int i = 0; i < rules.size(); i++) {
      if (notNullColumn[i] >= 0 && !spilled) {
        BitSet nulls = new BitSet();
        batch.forEachRowWithNullIn(new int[] {notNullColumn[i]}, nulls::set);
        nullIn[i] = nulls;
      } else {
        rowRules = true;
      }
    }
    List<Row> quarantined = new ArrayList<>();
    long dropped = 0;
    int failRule = -1;
    Row failSample = null;
    int[] columns = spilled ? readAll : read;
    Iterable<Row> pass = columns != null ? batch.project(columns) : batch.rows();
    java.util.Iterator<Row> rows = rowRules ? pass.iterator() : null;
    for (int position = 0; position < batch.size(); position++) {
      Row row = rows != null ? rows.next() : null;
      ExpectationAction strongest = null;
      StringJoiner broken = null; // made for a row that breaks a rule only: most break none
      for (int i = 0; i < rules.size(); i++) {
        if (nullIn[i] != null ? nullIn[i].get(position) : !bound.get(i).test(row, ctx)) {
          failed[i]++;
          if (broken == null) {
            broken = new StringJoiner(",");
          }
          broken.add(rules.get(i).name());
          ExpectationAction a = rules.get(i).action();
          if (strongest == null || a.ordinal() > strongest.ordinal()) {
            strongest = a;
          }
          if (a == ExpectationAction.FAIL && failRule < 0) {
            failRule = i;
            failSample = batch.rows().get(position);
          }
        }
      }
      if (strongest == null || strongest == ExpectationAction.WARN) {
        kept.set(position);
      } else if (strongest == ExpectationAction.DROP) {
        dropped++;
      } else if (strongest == ExpectationAction.QUARANTINE) {
        quarantined.add(QuarantineRows.of(batch.rows().get(position), broken.toString(), context.batchId(),
            quarantineSchema));
      }
    }
    if (failRule >= 0) {
      throw failure(rules.get(failRule), failed[failRule], batch.size(), context.batchId(), failSample);
    }
    for (int i = 0; i < rules.size(); i++) {
      context.count("expectation." + rules.get(i).name() + ".failed", failed[i]);
    }
    context.count(RowLedger.DROPPED, dropped);
    context.count(RowLedger.QUARANTINED, quarantined.size());
    states.of(context.batchId()).quarantined.addAll(quarantined);
    return batch.keep(kept);
  }

  private ExpectationFailedException failure(Expectation rule, long broken, int rows, long batchId, Row sample) {
    return new ExpectationFailedException(rule.name(), "Pipeline '" + pipeline + "': expectation '" + rule.name()
        + "' (" + rule.condition() + ") with action fail was broken by " + broken + " of " + rows + " rows in batch "
        + batchId + "; sample row: " + describe(sample) + ". Nothing of this batch was written. Fix the data upstream,"
        + " or change the action to warn, drop or quarantine.");
  }

  private String describe(Row row) {
    StringJoiner out = new StringJoiner(", ", "{", "}");
    for (int i = 0; i < schema.size(); i++) {
      out.add(schema.field(i).name() + "=" + row.get(i));
    }
    return out.toString();
  }
}
