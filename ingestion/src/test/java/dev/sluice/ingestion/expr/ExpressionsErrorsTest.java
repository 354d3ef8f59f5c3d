package dev.sluice.ingestion.expr;

import static dev.sluice.ingestion.expr.ExprFixtures.SCHEMA;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ExpressionsErrorsTest {

  @Test
  void unknownColumnNamesItsPositionTheKnownColumnsAndTheClosestOne() {
    assertThatThrownBy(() -> Expressions.bind("status = 'a' AND amout > 2", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Unknown column `amout`")
        .hasMessageContaining("line 1, column 18")
        .hasMessageContaining("Did you mean `amount`?")
        .hasMessageContaining("Known columns: amount, total, price, status, flag")
        .satisfies(e -> {
          ExpressionException x = (ExpressionException) e;
          org.assertj.core.api.Assertions.assertThat(x.line()).isEqualTo(1);
          org.assertj.core.api.Assertions.assertThat(x.column()).isEqualTo(18);
        });
  }

  @Test
  void unknownColumnOnALaterLine() {
    assertThatThrownBy(() -> Expressions.bind("amount > 1\n  AND zzz_unrelated = 2", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Unknown column `zzz_unrelated` at line 2, column 7")
        .hasMessageNotContaining("Did you mean");
  }

  @Test
  void unknownFunctionListsKnownFunctionsSortedAndSuggests() {
    assertThatThrownBy(() -> Expressions.bind("lowr(status)", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Unknown function `lowr` at line 1, column 1")
        .hasMessageContaining("Did you mean `lower`?")
        .hasMessageContaining("Known functions: abs, ceil, ceiling, coalesce, concat,");
  }

  @Test
  void parseErrorNamesWhereParsingStopped() {
    assertThatThrownBy(() -> Expressions.bind("amount >", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Cannot parse the SQL expression `amount >` at line 1, column 8 near `>`");
    assertThatThrownBy(() -> Expressions.bind("amount > 1 )", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("at line 1, column 12 near `)`");
    assertThatThrownBy(() -> Expressions.bind("  ", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("The SQL expression is empty");
  }

  @Test
  void incompatibleComparisonsAreErrors() {
    assertThatThrownBy(() -> Expressions.bind("amount > 'x'", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Cannot compare integer with string 'x'")
        .hasMessageContaining("line 1, column 1");
    assertThatThrownBy(() -> Expressions.bind("flag = 1", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Cannot compare boolean with integer");
    assertThatThrownBy(() -> Expressions.bind("day > 'not a date'", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Cannot compare with 'not a date': it is not a valid date");
    assertThatThrownBy(() -> Expressions.bind("day + 1", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Operator + needs numbers but got date + integer");
  }

  @Test
  void predicatesMustBeBoolean() {
    assertThatThrownBy(() -> Expressions.bindPredicate("amount + 1", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Expected a boolean condition but `amount + 1` is integer");
    assertThatThrownBy(() -> Expressions.bind("amount AND flag", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Expected a boolean condition but `amount` is integer");
  }

  @Test
  void functionArgumentErrors() {
    assertThatThrownBy(() -> Expressions.bind("round(price, 1, 2)", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Function `round` takes 1 to 2 argument(s) but got 3");
    assertThatThrownBy(() -> Expressions.bind("date_trunc('fortnight', ts)", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("The first argument of `date_trunc` must be one of");
    assertThatThrownBy(() -> Expressions.bind("get_json_object(payload, 'a.b')", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Invalid JSON path 'a.b'");
    assertThatThrownBy(() -> Expressions.bind("to_date(status, 'yyyy-MM-dd-{{')", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Invalid date/time pattern 'yyyy-MM-dd-{{'");
    assertThatThrownBy(() -> Expressions.bind("year(amount)", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Function `year` needs a timestamp or date but got integer");
  }

  @Test
  void invalidLiteralsAndTypes() {
    assertThatThrownBy(() -> Expressions.bind("DATE '2024-13-01'", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("'2024-13-01' is not a valid DATE literal");
    assertThatThrownBy(() -> Expressions.bind("CAST(amount AS widget)", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Unknown type `widget`");
    assertThatThrownBy(() -> Expressions.bind("CAST(day AS INT)", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Cannot cast date to integer");
  }
}
