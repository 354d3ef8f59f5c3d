package dev.sluice.config;

import java.util.Objects;

/** A credential read from an environment variable; its value never appears in {@link #toString()}. */
public record Secret(String variable, String value) {
  public Secret {
    Objects.requireNonNull(variable, "variable");
    Objects.requireNonNull(value, "value");
  }

  @Override
  public String toString() {
    return "${env:" + variable + "}=****";
  }
}
