package dev.sluice.ingestion.internal.plan;

import dev.sluice.ingestion.Batch;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;

/**
 * One input of a {@link MultiInputTransform}: a range of the query's sources (unioned: they must share a schema)
 * and the steps the user applied to them before combining, bound in order.
 */
public final class InputPlan {
  private final int firstSource;
  private final int sourceCount;
  private final List<Transform> steps;
  private final StructType input;

  private InputPlan(int firstSource, int sourceCount, StructType input, List<Transform> steps) {
    this.firstSource = firstSource;
    this.sourceCount = sourceCount;
    this.input = input;
    this.steps = steps;
  }

  /**
   * Binds {@code specs} over sources {@code [first, first + count)} of {@code sources}; a nested multi-input step
   * (a join of a union) comes first in {@code specs} and takes those sources.
   *
   * @throws IllegalArgumentException when the sources' schemas differ or a step does not fit
   */
  public static InputPlan bind(List<StructType> sources, int first, int count, List<TransformSpec> specs) {
    List<Transform> bound = new ArrayList<>();
    StructType schema;
    int from = 0;
    if (!specs.isEmpty() && specs.get(0) instanceof MultiInputSpec m) {
      MultiInputTransform t = m.bindInputs(sources.subList(first, first + count));
      bound.add(t);
      schema = t.schema();
      from = 1;
    } else {
      schema = sources.get(first);
      for (int i = first + 1; i < first + count; i++) {
        if (!sources.get(i).equals(schema)) {
          throw new IllegalArgumentException("The sources of one stream must share a schema to be unioned, but "
              + schema + " differs from " + sources.get(i));
        }
      }
    }
    StructType input = schema;
    for (TransformSpec s : specs.subList(from, specs.size())) {
      Transform t = s.bind(schema);
      bound.add(t);
      schema = t.schema();
    }
    return new InputPlan(first, count, input, bound);
  }

  /** The schema after this input's steps. */
  public StructType schema() {
    return steps.isEmpty() ? input : steps.get(steps.size() - 1).schema();
  }

  public List<Transform> steps() {
    return steps;
  }

  /** Every transform of this input, nested ones included, depth first. */
  public List<Transform> flatten() {
    List<Transform> out = new ArrayList<>();
    for (Transform t : steps) {
      out.add(t);
      if (t instanceof MultiInputTransform m) {
        out.addAll(m.nested());
      }
    }
    return out;
  }

  /** This input's rows of the batch after its steps. */
  public Batch run(List<Batch> perSource, Transform.BatchInfo info) {
    List<Batch> mine = perSource.subList(firstSource, firstSource + sourceCount);
    int at = 0;
    Batch batch;
    if (!steps.isEmpty() && steps.get(0) instanceof MultiInputTransform m) {
      batch = m.applyInputs(mine, info);
      at = 1;
    } else {
      List<Row> rows = new ArrayList<>();
      mine.forEach(b -> rows.addAll(b.rows()));
      batch = new Batch(input, rows);
    }
    for (Transform t : steps.subList(at, steps.size())) {
      batch = t.apply(batch, info);
    }
    return batch;
  }
}
