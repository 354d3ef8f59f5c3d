package dev.sluice.ingestion.internal.plan.join;

import java.util.Locale;

/** The kinds of stream-stream join, with Spark's names. */
public enum StreamJoinType {
  INNER, LEFT_OUTER, RIGHT_OUTER, FULL_OUTER, LEFT_SEMI;

  /**
   * Spark's spellings: {@code inner}, {@code left}/{@code leftouter}/{@code left_outer}, {@code right…},
   * {@code full}/{@code outer}/{@code fullouter}/{@code full_outer}, {@code leftsemi}/{@code left_semi}/{@code semi}.
   *
   * @throws IllegalArgumentException naming the accepted spellings
   */
  public static StreamJoinType parse(String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT).replace(" ", "").replace("_", "")) {
      case "inner" -> INNER;
      case "left", "leftouter" -> LEFT_OUTER;
      case "right", "rightouter" -> RIGHT_OUTER;
      case "full", "outer", "fullouter" -> FULL_OUTER;
      case "leftsemi", "semi" -> LEFT_SEMI;
      default -> throw new IllegalArgumentException("Join type '" + text + "' is not supported for a stream-stream"
          + " join; use inner, left_outer, right_outer, full_outer or left_semi");
    };
  }

  /** Whether unmatched left rows are emitted (with nulls for the right columns). */
  boolean keepsLeft() {
    return this == LEFT_OUTER || this == FULL_OUTER;
  }

  /** Whether unmatched right rows are emitted (with nulls for the left columns). */
  boolean keepsRight() {
    return this == RIGHT_OUTER || this == FULL_OUTER;
  }

  /** Spark's name, e.g. {@code LeftOuter}. */
  public String sparkName() {
    return switch (this) {
      case INNER -> "Inner";
      case LEFT_OUTER -> "LeftOuter";
      case RIGHT_OUTER -> "RightOuter";
      case FULL_OUTER -> "FullOuter";
      case LEFT_SEMI -> "LeftSemi";
    };
  }
}
