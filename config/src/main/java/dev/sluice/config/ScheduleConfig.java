package dev.sluice.config;

import java.util.Objects;

/** When the orchestrator starts a pipeline: a Quartz cron expression or a fixed interval. */
public sealed interface ScheduleConfig {
  /** A Quartz cron expression (6 or 7 fields, seconds first): {@code {cron: "0 *}{@code /5 * * * ?"}}. */
  record Cron(String expression) implements ScheduleConfig {
    public Cron {
      Objects.requireNonNull(expression, "expression");
    }
  }

  /** A fixed interval: {@code {every: 5 minutes}}. */
  record Every(Interval interval) implements ScheduleConfig {
    public Every {
      Objects.requireNonNull(interval, "interval");
    }
  }
}
