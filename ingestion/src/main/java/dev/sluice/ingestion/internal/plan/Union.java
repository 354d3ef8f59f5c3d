package dev.sluice.ingestion.internal.plan;

import dev.sluice.ingestion.Batch;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code union} of streams, as Spark's: by position, every input with the same number of columns and the same
 * types; the output takes the first input's names. Each input keeps its own watermark (the query's is the minimum).
 */
public final class Union implements MultiInputTransform {
  private final List<InputPlan> inputs;
  private final StructType schema;

  private Union(List<InputPlan> inputs, StructType schema) {
    this.inputs = inputs;
    this.schema = schema;
  }

  /** The spec: inputs as (source count, their steps), in source order. */
  public static MultiInputSpec of(List<Integer> sourceCounts, List<List<TransformSpec>> steps) {
    int total = sourceCounts.stream().mapToInt(Integer::intValue).sum();
    return new MultiInputSpec() {
      @Override
      public MultiInputTransform bindInputs(List<StructType> sources) {
        List<InputPlan> plans = new ArrayList<>();
        int first = 0;
        for (int i = 0; i < sourceCounts.size(); i++) {
          plans.add(InputPlan.bind(sources, first, sourceCounts.get(i), steps.get(i)));
          first += sourceCounts.get(i);
        }
        StructType out = plans.get(0).schema();
        for (int i = 1; i < plans.size(); i++) {
          check(out, plans.get(i).schema(), i);
        }
        return new Union(plans, out);
      }

      @Override
      public int sourceCount() {
        return total;
      }
    };
  }

  private static void check(StructType first, StructType other, int index) {
    boolean same = first.size() == other.size();
    for (int i = 0; same && i < first.size(); i++) {
      same = first.field(i).type().equals(other.field(i).type());
    }
    if (!same) {
      throw new IllegalArgumentException("union: stream " + (index + 1) + " has columns " + describe(other)
          + " but the first stream has " + describe(first) + "; union matches columns by position, so both need the"
          + " same number of columns with the same types. Select or cast the columns of one side to match.");
    }
  }

  private static String describe(StructType s) {
    return s.fields().stream().map(f -> f.name() + " " + f.type().typeName()).toList().toString();
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Batch applyInputs(List<Batch> perSource, BatchInfo info) {
    List<Row> rows = new ArrayList<>();
    for (InputPlan p : inputs) {
      rows.addAll(p.run(perSource, info).rows());
    }
    return new Batch(schema, rows);
  }

  @Override
  public List<Transform> nested() {
    List<Transform> out = new ArrayList<>();
    inputs.forEach(p -> out.addAll(p.flatten()));
    return out;
  }

  @Override
  public String describe() {
    return "Union[" + inputs.size() + " streams]";
  }

}
