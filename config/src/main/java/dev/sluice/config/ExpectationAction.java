package dev.sluice.config;

import java.util.Locale;

/** What a silver pipeline does with a row that breaks an expectation. */
public enum ExpectationAction {
  /** Keep the row and count the violation. */
  WARN,
  /** Leave the row out and count it. */
  DROP,
  /** Write the row, with the names of the rules it broke, to {@code <table>_quarantine}. */
  QUARANTINE,
  /** Fail the batch. */
  FAIL;

  /** The name written in YAML. */
  public String yamlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
