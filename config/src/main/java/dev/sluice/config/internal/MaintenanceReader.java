package dev.sluice.config.internal;

import dev.sluice.config.Interval;
import dev.sluice.config.MaintenanceConfig;
import dev.sluice.config.MaintenanceConfig.OptimizeTask;
import dev.sluice.config.MaintenanceConfig.Schedule;
import dev.sluice.config.MaintenanceConfig.VacuumTask;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code maintenance: {optimize, vacuum}} of {@code defaults} or a pipeline. A task is a schedule alone or a
 * mapping with {@code schedule}; {@code off} turns off a task the defaults set.
 */
final class MaintenanceReader {
  static final String SCHEDULE_FORMS = "hourly, daily, weekly, monthly, a cron expression of 5 fields (\"0 3 * * *\","
      + " minute hour day month weekday) or Quartz's 6 or 7 (\"0 0 3 * * ?\")";
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([a-z]*)");

  private MaintenanceReader() {}

  /** Absent keys stay absent; {@code off} is an empty task that {@link #over} keeps. */
  record Read(Optional<Optional<OptimizeTask>> optimize, Optional<Optional<VacuumTask>> vacuum) {
    static final Read NONE = new Read(Optional.empty(), Optional.empty());

    /** These tasks, each falling back to {@code defaults}'s where not written. */
    MaintenanceConfig over(MaintenanceConfig defaults) {
      return new MaintenanceConfig(optimize.orElse(defaults.optimize()), vacuum.orElse(defaults.vacuum()));
    }
  }

  /** Null after a problem was reported. */
  static Read read(Fields owner) {
    if (!owner.has("maintenance")) {
      return Read.NONE;
    }
    Fields m = owner.object("maintenance", "a mapping {optimize, vacuum}");
    if (m == null) {
      return null;
    }
    int before = m.problems().size();
    Optional<Optional<OptimizeTask>> optimize = m.has("optimize") ? Optional.of(optimize(m)) : Optional.empty();
    Optional<Optional<VacuumTask>> vacuum = m.has("vacuum") ? Optional.of(vacuum(m)) : Optional.empty();
    return m.problems().size() > before ? null : new Read(optimize, vacuum);
  }

  private static Optional<OptimizeTask> optimize(Fields m) {
    if (!(m.raw("optimize") instanceof YamlNode.MapNode)) {
      return scheduleOnly(m, "optimize").map(s -> new OptimizeTask(s, Optional.empty(), List.of(), List.of(),
          OptionalLong.empty()));
    }
    Fields o = Fields.of(m.raw("optimize"), m.path("optimize"), ConfigShape.MAINTENANCE_OPTIMIZE, m.context(),
        "a schedule or {schedule, where, zorder_by, cluster_by, target_file_size}");
    if (o == null || !o.require("schedule", "e.g. schedule: daily")) {
      return Optional.empty();
    }
    Schedule schedule = schedule(o, "schedule");
    List<String> zorder = o.strings("zorder_by", "column names");
    List<String> cluster = o.strings("cluster_by", "column names");
    if (!zorder.isEmpty() && !cluster.isEmpty()) {
      o.problem("cluster_by", "give either zorder_by or cluster_by, not both", "Z-order suits filters on any of the"
          + " columns; clustering suits filters on the first");
    }
    OptionalLong size = OptionalLong.empty();
    if (o.has("target_file_size")) {
      long bytes = size(o.string("target_file_size"));
      if (bytes <= 0) {
        o.problem("target_file_size", "`" + o.string("target_file_size") + "` is not a positive size",
            "write bytes or a number with KB, MB or GB, e.g. 128MB");
      }
      size = OptionalLong.of(bytes);
    }
    return schedule == null ? Optional.empty()
        : Optional.of(new OptimizeTask(schedule, o.optionalString("where"), zorder, cluster, size));
  }

  private static Optional<VacuumTask> vacuum(Fields m) {
    if (!(m.raw("vacuum") instanceof YamlNode.MapNode)) {
      return scheduleOnly(m, "vacuum").map(s -> new VacuumTask(s, Optional.empty()));
    }
    Fields v = Fields.of(m.raw("vacuum"), m.path("vacuum"), ConfigShape.MAINTENANCE_VACUUM, m.context(),
        "a schedule or {schedule, retain}");
    if (v == null || !v.require("schedule", "e.g. schedule: weekly")) {
      return Optional.empty();
    }
    Schedule schedule = schedule(v, "schedule");
    Interval retain = v.has("retain") ? v.interval("retain") : null;
    return schedule == null ? Optional.empty() : Optional.of(new VacuumTask(schedule, Optional.ofNullable(retain)));
  }

  private static Optional<Schedule> scheduleOnly(Fields m, String key) {
    String text = m.string(key);
    if (text != null && (text.strip().equalsIgnoreCase("off") || text.strip().equalsIgnoreCase("false"))) {
      return Optional.empty();
    }
    return Optional.ofNullable(schedule(m, key));
  }

  private static Schedule schedule(Fields owner, String key) {
    String text = owner.string(key);
    if (text == null) {
      return null;
    }
    String quartz = quartzCron(text.strip());
    if (quartz == null) {
      owner.problem(key, "`" + text + "` is not a schedule", "use " + SCHEDULE_FORMS);
      return null;
    }
    return new Schedule(text.strip(), quartz);
  }

  /** The Quartz form of a keyword, a 5-field Unix cron expression or a Quartz one; null if none of them. */
  static String quartzCron(String text) {
    switch (text.toLowerCase(Locale.ROOT)) {
      case "hourly": return "0 0 * * * ?";
      case "daily": return "0 0 0 * * ?";
      case "weekly": return "0 0 0 ? * SUN";
      case "monthly": return "0 0 0 1 * ?";
      default: break;
    }
    String[] f = text.split("\\s+");
    if (f.length == 6 || f.length == 7) {
      return Checks.cron(text) == null ? text : null;
    }
    if (f.length != 5) {
      return null;
    }
    // Quartz wants seconds first, numbers weekdays from 1 = Sunday, and `?` in one of the two day fields.
    String dom = f[2];
    String dow = f[4].equals("*") ? "?" : unixWeekdays(f[4]);
    if (!dow.equals("?") && dom.equals("*")) {
      dom = "?";
    } else if (!dow.equals("?")) {
      return null;
    }
    return "0 " + f[0] + " " + f[1] + " " + dom + " " + f[3] + " " + dow;
  }

  private static String unixWeekdays(String field) {
    Matcher m = Pattern.compile("\\d+").matcher(field);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Integer.toString(Integer.parseInt(m.group()) % 7 + 1));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static long size(String text) {
    if (text == null) {
      return -1;
    }
    Matcher m = SIZE.matcher(text.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      return -1;
    }
    int shift = switch (m.group(2)) {
      case "", "b" -> 0;
      case "k", "kb", "kib" -> 10;
      case "m", "mb", "mib" -> 20;
      case "g", "gb", "gib" -> 30;
      default -> -1;
    };
    long n = Long.parseLong(m.group(1));
    return shift < 0 || n <= 0 || n > (Long.MAX_VALUE >> shift) ? -1 : n << shift;
  }
}
