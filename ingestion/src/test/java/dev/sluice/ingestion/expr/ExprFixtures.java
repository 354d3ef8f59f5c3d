package dev.sluice.ingestion.expr;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

/** A schema with one column of each common type, a row over it, and evaluation helpers. */
final class ExprFixtures {
  static final StructType SCHEMA = StructType.empty()
      .add("amount", PrimitiveType.INTEGER)
      .add("total", PrimitiveType.LONG)
      .add("price", PrimitiveType.DOUBLE)
      .add("status", PrimitiveType.STRING)
      .add("flag", PrimitiveType.BOOLEAN)
      .add("day", PrimitiveType.DATE)
      .add("ts", PrimitiveType.TIMESTAMP)
      .add("cost", DecimalType.of(10, 2))
      .add("my col", PrimitiveType.STRING)
      .add("payload", PrimitiveType.STRING)
      .add("n", PrimitiveType.INTEGER)
      .add("b", PrimitiveType.BOOLEAN)
      .add("ratio", PrimitiveType.FLOAT);

  static final Instant BATCH_TIME = Instant.parse("2024-05-06T07:08:09Z");
  static final EvalContext CONTEXT = new EvalContext(BATCH_TIME);

  static final Row ROW = Row.of(
      42, 7_000_000_000L, 2.5, "open", true,
      LocalDate.of(2024, 1, 15), Instant.parse("2024-01-15T10:20:30.123456Z"),
      new BigDecimal("12.34"), "spaced", "{\"a\":{\"b\":[10,{\"c\":\"x\"}]},\"s\":\"t\",\"z\":null}",
      null, null, 1.5f);

  private ExprFixtures() {}

  static Object eval(String sql) {
    return Expressions.bind(sql, SCHEMA).eval(ROW, CONTEXT);
  }

  static Object eval(String sql, Row row) {
    return Expressions.bind(sql, SCHEMA).eval(row, CONTEXT);
  }

  /** A row with only {@code n} and {@code b} set, for null-logic tables. */
  static Row nb(Integer n, Boolean b) {
    Object[] values = ROW.toArray();
    values[10] = n;
    values[11] = b;
    return Row.of(values);
  }
}
