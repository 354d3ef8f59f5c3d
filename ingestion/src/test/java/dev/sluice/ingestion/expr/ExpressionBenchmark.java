package dev.sluice.ingestion.expr;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.Locale;

/**
 * A by-hand measurement, not a test: evaluates {@code amount > 10 AND status <> 'test'} over
 * 1,000,000 in-memory rows and prints rows per second as JSON. Run with the test classpath:
 * {@code java -cp target/test-classes:target/classes:<deps> dev.sluice.ingestion.expr.ExpressionBenchmark [rows] [rounds]}.
 */
public final class ExpressionBenchmark {
  private static final StructType SCHEMA = StructType.empty()
      .add("id", PrimitiveType.LONG)
      .add("amount", PrimitiveType.INTEGER)
      .add("status", PrimitiveType.STRING)
      .add("ts", PrimitiveType.TIMESTAMP);
  private static final String[] STATUSES = {"open", "test", "closed", "paid"};

  private ExpressionBenchmark() {}

  public static void main(String[] args) {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    Row[] data = new Row[rows];
    for (int i = 0; i < rows; i++) {
      Integer amount = i % 97 == 0 ? null : i % 23;
      data[i] = Row.of((long) i, amount, STATUSES[i % STATUSES.length], Instant.ofEpochSecond(1_700_000_000L + i));
    }
    BoundExpression filter = Expressions.bindPredicate("amount > 10 AND status <> 'test'", SCHEMA);
    EvalContext context = new EvalContext(Instant.now());
    long best = Long.MAX_VALUE;
    int matched = 0;
    for (int round = 0; round < rounds; round++) {
      long start = System.nanoTime();
      matched = 0;
      for (Row row : data) {
        if (filter.test(row, context)) {
          matched++;
        }
      }
      best = Math.min(best, System.nanoTime() - start);
    }
    System.out.printf(Locale.ROOT, "{\"expression\":\"%s\",\"rows\":%d,\"matched\":%d,\"bestRoundMs\":%.1f,\"rowsPerSecond\":%.0f}%n",
        filter.sql(), rows, matched, best / 1e6, rows / (best / 1e9));
  }
}
