package dev.sluice.config;

import java.util.Objects;

/** A named data-quality rule of a silver pipeline: a SQL condition every row should meet, and what to do if not. */
public record Expectation(String name, String condition, ExpectationAction action) {
  public Expectation {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(condition, "condition");
    Objects.requireNonNull(action, "action");
  }
}
