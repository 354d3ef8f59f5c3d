package dev.sluice.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Scheduled maintenance of a pipeline's sink table, run by {@code sluice serve}: OPTIMIZE and VACUUM (each VACUUM is
 * followed by the cleanup of expired log files). Set in {@code defaults.maintenance} for every pipeline, or in a
 * pipeline's {@code maintenance}, whose tasks replace the defaults' ({@code off} turns a task off).
 *
 * <pre>
 * maintenance:
 *   optimize: "0 3 * * *"                    # a schedule alone, or {schedule, where, zorder_by | cluster_by, target_file_size}
 *   vacuum: {schedule: weekly, retain: 168h}
 * </pre>
 */
public record MaintenanceConfig(Optional<OptimizeTask> optimize, Optional<VacuumTask> vacuum) {
  public MaintenanceConfig {
    Objects.requireNonNull(optimize, "optimize");
    Objects.requireNonNull(vacuum, "vacuum");
  }

  /** No maintenance. */
  public static MaintenanceConfig none() {
    return new MaintenanceConfig(Optional.empty(), Optional.empty());
  }

  public boolean isEmpty() {
    return optimize.isEmpty() && vacuum.isEmpty();
  }

  /**
   * When a task runs.
   *
   * @param text as written ({@code weekly}, {@code 0 3 * * *})
   * @param quartzCron the Quartz cron expression it means ({@code 0 0 3 * * ?})
   */
  public record Schedule(String text, String quartzCron) {
    public Schedule {
      Objects.requireNonNull(text, "text");
      Objects.requireNonNull(quartzCron, "quartzCron");
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** An OPTIMIZE: bin-packing, or Z-order / clustering when columns are given. */
  public record OptimizeTask(Schedule schedule, Optional<String> where, List<String> zorderBy, List<String> clusterBy,
      OptionalLong targetFileSize) {
    public OptimizeTask {
      Objects.requireNonNull(schedule, "schedule");
      Objects.requireNonNull(where, "where");
      zorderBy = List.copyOf(zorderBy);
      clusterBy = List.copyOf(clusterBy);
      Objects.requireNonNull(targetFileSize, "targetFileSize");
    }
  }

  /** A VACUUM with a retention (default: the table's {@code delta.deletedFileRetentionDuration}, 7 days). */
  public record VacuumTask(Schedule schedule, Optional<Interval> retain) {
    public VacuumTask {
      Objects.requireNonNull(schedule, "schedule");
      Objects.requireNonNull(retain, "retain");
    }
  }
}
