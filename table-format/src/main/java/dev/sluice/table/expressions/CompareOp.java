package dev.sluice.table.expressions;

/** A comparison operator of a {@link Predicate}, with its SQL spelling. */
public enum CompareOp {
  EQ("="),
  NE("<>"),
  LT("<"),
  LE("<="),
  GT(">"),
  GE(">=");

  private final String sql;

  CompareOp(String sql) {
    this.sql = sql;
  }

  public String sql() {
    return sql;
  }

  /** Whether a three-way comparison result ({@code compare(left, right)}) satisfies this operator. */
  public boolean test(int comparison) {
    return switch (this) {
      case EQ -> comparison == 0;
      case NE -> comparison != 0;
      case LT -> comparison < 0;
      case LE -> comparison <= 0;
      case GT -> comparison > 0;
      case GE -> comparison >= 0;
    };
  }

  /** The operator that is true exactly when this one is false (for non-null operands). */
  public CompareOp negate() {
    return switch (this) {
      case EQ -> NE;
      case NE -> EQ;
      case LT -> GE;
      case LE -> GT;
      case GT -> LE;
      case GE -> LT;
    };
  }

  /** The operator for the same comparison with its operands swapped: {@code a < b} is {@code b > a}. */
  public CompareOp flip() {
    return switch (this) {
      case EQ, NE -> this;
      case LT -> GT;
      case LE -> GE;
      case GT -> LT;
      case GE -> LE;
    };
  }
}
