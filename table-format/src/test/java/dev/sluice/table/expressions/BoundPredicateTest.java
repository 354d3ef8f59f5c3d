package dev.sluice.table.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BoundPredicateTest {
  private static final StructType BOOLS = StructType.empty()
      .add("a", PrimitiveType.BOOLEAN)
      .add("b", PrimitiveType.BOOLEAN);

  private static final StructType SCHEMA = StructType.empty()
      .add("id", PrimitiveType.LONG)
      .add("n", PrimitiveType.INTEGER)
      .add("small", PrimitiveType.SHORT)
      .add("tiny", PrimitiveType.BYTE)
      .add("f", PrimitiveType.FLOAT)
      .add("d", PrimitiveType.DOUBLE)
      .add("amount", DecimalType.of(10, 2))
      .add("status", PrimitiveType.STRING)
      .add("flag", PrimitiveType.BOOLEAN)
      .add("day", PrimitiveType.DATE)
      .add("ts", PrimitiveType.TIMESTAMP)
      .add("bin", PrimitiveType.BINARY)
      .add("tags", new ArrayType(PrimitiveType.STRING, true));

  private static Row row() {
    return Row.of(7L, 7, (short) 7, (byte) 7, 0.1f, 2.5, new BigDecimal("10.50"), "open", true,
        LocalDate.of(2021, 9, 8), Instant.parse("2021-09-08T11:11:11.123456Z"), new byte[] {1, 2},
        List.of("x"));
  }

  private static Boolean truth(String s) {
    return s.equals("NULL") ? null : Boolean.valueOf(s);
  }

  /** {@code a = TRUE} evaluates to a's own truth value, NULL for a null a. */
  private static Predicate var(String column) {
    return Predicate.eq(column, true);
  }

  @ParameterizedTest(name = "{0} AND {1} = {2}, {0} OR {1} = {3}")
  @CsvSource({
      "true, true, true, true",
      "true, false, false, true",
      "true, NULL, NULL, true",
      "false, true, false, true",
      "false, false, false, false",
      "false, NULL, false, NULL",
      "NULL, true, NULL, true",
      "NULL, false, false, NULL",
      "NULL, NULL, NULL, NULL"})
  void followsKleeneLogic(String a, String b, String and, String or) {
    Row r = Row.of(truth(a), truth(b));
    assertThat(Predicate.and(var("a"), var("b")).bind(BOOLS).evaluate(r)).isEqualTo(truth(and));
    assertThat(Predicate.or(var("a"), var("b")).bind(BOOLS).evaluate(r)).isEqualTo(truth(or));
    // De Morgan holds in three-valued logic, which the NOT push-down relies on.
    assertThat(Predicate.not(Predicate.and(var("a"), var("b"))).bind(BOOLS).evaluate(r))
        .isEqualTo(truth(and) == null ? null : !truth(and));
    assertThat(Predicate.not(Predicate.or(var("a"), var("b"))).bind(BOOLS).evaluate(r))
        .isEqualTo(truth(or) == null ? null : !truth(or));
    assertThat(Predicate.and(var("a"), var("b")).bind(BOOLS).test(r)).isEqualTo("true".equals(and));
  }

  @ParameterizedTest
  @CsvSource({"true, false", "false, true", "NULL, NULL"})
  void notKeepsUnknown(String a, String not) {
    Row r = Row.of(truth(a), null);
    assertThat(Predicate.not(var("a")).bind(BOOLS).evaluate(r)).isEqualTo(truth(not));
    assertThat(Predicate.not(Predicate.not(var("a"))).bind(BOOLS).evaluate(r)).isEqualTo(truth(a));
  }

  @Test
  void nullCheckIsNeverUnknown() {
    Row r = Row.of(null, false);
    assertThat(Predicate.isNull("a").bind(BOOLS).evaluate(r)).isTrue();
    assertThat(Predicate.isNotNull("a").bind(BOOLS).evaluate(r)).isFalse();
    assertThat(Predicate.isNull("b").bind(BOOLS).evaluate(r)).isFalse();
    assertThat(Predicate.not(Predicate.isNull("a")).bind(BOOLS).evaluate(r)).isFalse();
  }

  @Test
  void comparisonWithNullValueIsUnknown() {
    StructType s = StructType.empty().add("x", PrimitiveType.LONG);
    for (CompareOp op : CompareOp.values()) {
      BoundPredicate p = Predicate.compare("x", op, 5).bind(s);
      assertThat(p.evaluate(Row.of((Object) null))).as(op.sql()).isNull();
      assertThat(Predicate.not(Predicate.compare("x", op, 5)).bind(s).evaluate(Row.of((Object) null))).isNull();
    }
  }

  @Test
  void comparesEveryOperator() {
    StructType s = StructType.empty().add("x", PrimitiveType.LONG);
    for (long v = 4; v <= 6; v++) {
      Row r = Row.of(v);
      assertThat(Predicate.eq("x", 5).bind(s).test(r)).isEqualTo(v == 5);
      assertThat(Predicate.ne("x", 5).bind(s).test(r)).isEqualTo(v != 5);
      assertThat(Predicate.lt("x", 5).bind(s).test(r)).isEqualTo(v < 5);
      assertThat(Predicate.le("x", 5).bind(s).test(r)).isEqualTo(v <= 5);
      assertThat(Predicate.gt("x", 5).bind(s).test(r)).isEqualTo(v > 5);
      assertThat(Predicate.ge("x", 5).bind(s).test(r)).isEqualTo(v >= 5);
      assertThat(Predicate.not(Predicate.lt("x", 5)).bind(s).test(r)).isEqualTo(v >= 5);
    }
  }

  @Test
  void comparesNumbersAcrossJavaClasses() {
    Row r = row();
    assertThat(Predicate.eq("id", 7).bind(SCHEMA).test(r)).isTrue();
    assertThat(Predicate.eq("n", 7L).bind(SCHEMA).test(r)).isTrue();
    assertThat(Predicate.eq("small", new BigDecimal("7.00")).bind(SCHEMA).test(r)).isTrue();
    assertThat(Predicate.lt("tiny", 7.5).bind(SCHEMA).test(r)).isTrue();
    assertThat(Predicate.eq("id", 7.5).bind(SCHEMA).test(r)).isFalse();
    assertThat(Predicate.gt("id", BigInteger.TEN.pow(30)).bind(SCHEMA).test(r)).isFalse();
    assertThat(Predicate.eq("amount", 10.5).bind(SCHEMA).test(r)).isTrue();
    assertThat(Predicate.eq("amount", new BigDecimal("10.5")).bind(SCHEMA).test(r)).isTrue();
    assertThat(Predicate.gt("d", 2).bind(SCHEMA).test(r)).isTrue();
  }

  @Test
  void roundsLiteralsForFloatColumnsToFloat() {
    assertThat(Predicate.eq("f", 0.1).bind(SCHEMA).test(row())).isTrue();
    assertThat(Predicate.eq("f", "0.1").bind(SCHEMA).test(row())).isTrue();
    assertThat(Predicate.eq("d", 0.1f).bind(SCHEMA).predicate()).isEqualTo(Predicate.eq("d", 0.1f));
  }

  @Test
  void ordersNaNAboveEverythingAndZeroesEqual() {
    StructType s = StructType.empty().add("d", PrimitiveType.DOUBLE);
    assertThat(Predicate.gt("d", Double.MAX_VALUE).bind(s).test(Row.of(Double.NaN))).isTrue();
    assertThat(Predicate.eq("d", Double.NaN).bind(s).test(Row.of(Double.NaN))).isTrue();
    assertThat(Predicate.eq("d", "NaN").bind(s).test(Row.of(Double.NaN))).isTrue();
    assertThat(Predicate.eq("d", 0.0).bind(s).test(Row.of(-0.0))).isTrue();
    assertThat(Predicate.lt("d", Double.POSITIVE_INFINITY).bind(s).test(Row.of(1e308))).isTrue();
  }

  @Test
  void parsesStringLiteralsForTypedColumns() {
    Row r = row();
    assertThat(Predicate.eq("id", "7").bind(SCHEMA).test(r)).isTrue();
    assertThat(Predicate.eq("amount", "10.50").bind(SCHEMA).test(r)).isTrue();
    assertThat(Predicate.eq("flag", "TRUE").bind(SCHEMA).test(r)).isTrue();
    assertThat(Predicate.eq("day", "2021-09-08").bind(SCHEMA).test(r)).isTrue();
    assertThat(Predicate.gt("ts", "2021-09-08 11:11:11").bind(SCHEMA).test(r)).isTrue();
    assertThat(Predicate.eq("ts", "2021-09-08T11:11:11.123456Z").bind(SCHEMA).test(r)).isTrue();
    assertThat(Predicate.eq("ts", "2021-09-08T04:11:11.123456-07:00").bind(SCHEMA).test(r)).isTrue();
    assertThat(Predicate.lt("ts", LocalDate.of(2021, 9, 9)).bind(SCHEMA).test(r)).isTrue();
    assertThat(Predicate.eq("bin", new byte[] {1, 2}).bind(SCHEMA).test(r)).isTrue();
    assertThat(Predicate.lt("bin", new byte[] {1, (byte) 0x80}).bind(SCHEMA).test(r)).isTrue();
  }

  @Test
  void ordersStringsByCodePointLikeUtf8Bytes() {
    StructType s = StructType.empty().add("s", PrimitiveType.STRING);
    // U+FFFD sorts before U+1F600 in UTF-8 byte order, but after its surrogates in UTF-16 order.
    assertThat(Predicate.lt("s", "\uD83D\uDE00").bind(s).test(Row.of("\uFFFD"))).isTrue();
    assertThat(Predicate.lt("s", "ab").bind(s).test(Row.of("a"))).isTrue();
    assertThat(Predicate.gt("s", "B").bind(s).test(Row.of("a"))).isTrue();
  }

  @Test
  void evaluatesInWithThreeValuedLogic() {
    StructType s = StructType.empty().add("day", PrimitiveType.STRING);
    Predicate in = Predicate.in("day", List.of("a", "b"));
    assertThat(in.bind(s).evaluate(Row.of("b"))).isTrue();
    assertThat(in.bind(s).evaluate(Row.of("c"))).isFalse();
    assertThat(in.bind(s).evaluate(Row.of((Object) null))).isNull();
    assertThat(Predicate.not(in).bind(s).evaluate(Row.of("c"))).isTrue();
    assertThat(Predicate.not(in).bind(s).evaluate(Row.of((Object) null))).isNull();
    assertThat(Predicate.in("day", List.of()).bind(s).evaluate(Row.of("a"))).isFalse();
    assertThat(Predicate.in("n", List.of(1, "7", 9L)).bind(SCHEMA).test(row())).isTrue();
  }

  @Test
  void comparesColumnsWithEachOther() {
    StructType s = StructType.empty().add("a", PrimitiveType.INTEGER).add("b", PrimitiveType.DOUBLE);
    BoundPredicate p = Predicate.compareColumns("a", CompareOp.LT, "b").bind(s);
    assertThat(p.evaluate(Row.of(1, 1.5))).isTrue();
    assertThat(p.evaluate(Row.of(2, 1.5))).isFalse();
    assertThat(p.evaluate(Row.of(null, 1.5))).isNull();
    assertThat(Predicate.not(Predicate.compareColumns("a", CompareOp.LT, "b")).bind(s).evaluate(Row.of(2, 1.5)))
        .isTrue();
  }

  @Test
  void evaluatesConstants() {
    assertThat(Predicate.alwaysTrue().bind(BOOLS).test(Row.of(null, null))).isTrue();
    assertThat(Predicate.alwaysFalse().bind(BOOLS).test(Row.of(null, null))).isFalse();
    assertThat(Predicate.not(Predicate.alwaysFalse()).bind(BOOLS).test(Row.of(null, null))).isTrue();
  }

  @Test
  void canonicalisesNamesAndLiterals() {
    BoundPredicate p = Predicate.and(Predicate.eq("STATUS", "open"), Predicate.ge("Day", "2021-09-01")).bind(SCHEMA);
    assertThat(p.predicate()).isEqualTo(Predicate.and(Predicate.eq("status", "open"),
        Predicate.ge("day", LocalDate.of(2021, 9, 1))));
    assertThat(p).hasToString("status = 'open' AND day >= DATE '2021-09-01'");
    assertThat(p.schema()).isSameAs(SCHEMA);
    assertThat(p.test(row())).isTrue();
  }

  @Test
  void unknownColumnNamesTheKnownOnes() {
    assertThatThrownBy(() -> Predicate.eq("stauts", "open").bind(BOOLS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Column 'stauts' in predicate `stauts = 'open'` does not exist in the table schema; "
            + "known columns: [a, b]. Check the spelling (names match ignoring case).");
  }

  @Test
  void literalOfWrongTypeNamesBothTypes() {
    assertThatThrownBy(() -> Predicate.eq("id", "abc").bind(SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot compare column 'id' (long) with the literal 'abc' (String) in predicate `id = 'abc'`: "
            + "the literal is not a long value. Use a literal of the column's type.");
    assertThatThrownBy(() -> Predicate.eq("status", 5).bind(SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column 'status' (string) with the literal 5 (Integer)");
    assertThatThrownBy(() -> Predicate.eq("day", Instant.EPOCH).bind(SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column 'day' (date) with the literal 1970-01-01T00:00:00Z (Instant)");
    assertThatThrownBy(() -> Predicate.eq("ts", "yesterday").bind(SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column 'ts' (timestamp) with the literal 'yesterday' (String)");
    assertThatThrownBy(() -> Predicate.eq("flag", 1).bind(SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column 'flag' (boolean) with the literal 1 (Integer)");
    assertThatThrownBy(() -> Predicate.in("n", List.of(1, true)).bind(SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column 'n' (integer) with the literal true (Boolean)");
  }

  @Test
  void complexColumnsAllowOnlyNullChecks() {
    assertThat(Predicate.isNotNull("tags").bind(SCHEMA).test(row())).isTrue();
    assertThatThrownBy(() -> Predicate.eq("tags", "x").bind(SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Column 'tags' has type array<string>, which predicate `tags = 'x'` cannot compare with a "
            + "literal; only IS NULL and IS NOT NULL work on it.");
  }

  @Test
  void columnComparisonNeedsCompatibleTypes() {
    assertThatThrownBy(() -> Predicate.compareColumns("status", CompareOp.EQ, "id").bind(SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot compare column 'status' (string) with column 'id' (long)");
  }

  @Test
  void refusesRowsOfAnotherWidth() {
    assertThatThrownBy(() -> Predicate.isNull("a").bind(BOOLS).evaluate(Row.of(true)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("The row has 1 values but the predicate `a IS NULL` was bound to a schema of 2 columns");
  }

  @Test
  void wrongJavaValueInRowNamesTheColumn() {
    StructType s = StructType.empty().add("x", PrimitiveType.STRING);
    assertThatThrownBy(() -> Predicate.eq("x", "a").bind(s).evaluate(Row.of(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Column 'x' has type string");
  }
}
