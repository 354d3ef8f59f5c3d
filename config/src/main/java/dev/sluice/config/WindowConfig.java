package dev.sluice.config;

import java.util.Objects;

/** An event-time window of a gold aggregate; tumbling when {@code slide} equals {@code size}. */
public record WindowConfig(String column, Interval size, Interval slide) {
  public WindowConfig {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(size, "size");
    Objects.requireNonNull(slide, "slide");
  }

  /** True when windows do not overlap. */
  public boolean isTumbling() {
    return size.duration().equals(slide.duration());
  }
}
