package dev.sluice.ingestion;

import dev.sluice.ingestion.internal.plan.Filter;
import dev.sluice.ingestion.internal.plan.Projection;
import dev.sluice.ingestion.internal.plan.TransformSpec;
import dev.sluice.ingestion.internal.runner.SourceSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * An unbounded table being defined: a source plus per-batch steps (Spark's streaming DataFrame).
 * Immutable: each step returns a new frame. Expressions are SQL strings, checked when the query starts.
 */
public final class StreamFrame {
  private final SluiceSession session;
  private final SourceSpec source;
  private final List<TransformSpec> steps;

  StreamFrame(SluiceSession session, SourceSpec source, List<TransformSpec> steps) {
    this.session = session;
    this.source = source;
    this.steps = List.copyOf(steps);
  }

  private StreamFrame with(TransformSpec step) {
    List<TransformSpec> next = new ArrayList<>(steps);
    next.add(step);
    return new StreamFrame(session, source, next);
  }

  /** Columns or expressions with optional aliases: {@code select("id", "amount * 2 AS doubled")}. */
  public StreamFrame select(String... expressions) {
    return with(Projection.select(List.of(expressions)));
  }

  /** Same as {@link #select}, the Spark name for expression strings. */
  public StreamFrame selectExpr(String... expressions) {
    return select(expressions);
  }

  /** Rows for which the SQL condition is true. */
  public StreamFrame filter(String condition) {
    return with(Filter.of(condition));
  }

  /** Same as {@link #filter}. */
  public StreamFrame where(String condition) {
    return filter(condition);
  }

  /** Adds (or replaces) a column computed by an SQL expression. */
  public StreamFrame withColumn(String name, String expression) {
    return with(Projection.withColumn(name, expression));
  }

  /** Removes columns. */
  public StreamFrame drop(String... columns) {
    return with(Projection.drop(List.of(columns)));
  }

  /** Starts describing where the stream goes. */
  public DataStreamWriter writeStream() {
    return new DataStreamWriter(session, this);
  }

  SourceSpec source() {
    return source;
  }

  List<TransformSpec> steps() {
    return steps;
  }
}
