package dev.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs one engine as a child process and measures it as a whole: wall time, CPU time (user + system of the
 * child and the processes it waited for) and peak RSS, from GNU time's {@code -f "%U %S %M"} (the kernel's
 * rusage of the child, exact up to its last instruction, which sampling /proc could not be). Also the CPU that
 * the rest of the machine used meanwhile ({@code /proc/stat} busy time minus the child's), which says how noisy
 * the figure is. Standard output and error go to files beside each other in {@code logDir}.
 */
final class ChildRun {
  static final Path GNU_TIME = Path.of("/usr/bin/time");

  /** What a child process did; {@code cpuMs} and {@code peakRssMb} are -1 without GNU time. */
  record Result(int exitCode, long wallMs, long cpuMs, long userMs, long sysMs, long peakRssMb, long otherCpuMs,
      Path stdout, Path stderr) {
    boolean succeeded() {
      return exitCode == 0;
    }

    String stdoutText() throws IOException {
      return Files.readString(stdout);
    }

    /** The last lines of standard error, for a failure's message. */
    String stderrTail() throws IOException {
      List<String> lines = Files.readAllLines(stderr);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    }
  }

  private ChildRun() {}

  static Result run(String name, List<String> command, Map<String, String> env, Path cwd, Path logDir)
      throws IOException, InterruptedException {
    Files.createDirectories(logDir);
    Path out = logDir.resolve(name + ".out");
    Path err = logDir.resolve(name + ".err");
    Path times = logDir.resolve(name + ".time");
    Files.deleteIfExists(times);
    List<String> full = new ArrayList<>();
    boolean timed = Files.isExecutable(GNU_TIME);
    if (timed) {
      full.addAll(List.of(GNU_TIME.toString(), "-o", times.toString(), "-f", "%U %S %M"));
    }
    full.addAll(command);
    ProcessBuilder pb = new ProcessBuilder(full).directory(cwd.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().putAll(env);
    long busy0 = machineBusyMs();
    long t0 = System.nanoTime();
    int code = pb.start().waitFor();
    long wallMs = (System.nanoTime() - t0) / 1_000_000;
    long busy = machineBusyMs() - busy0;
    long user = -1;
    long sys = -1;
    long rssMb = -1;
    if (timed && Files.exists(times)) {
      // GNU time writes "Command exited with non-zero status N" first when the child failed.
      List<String> lines = Files.readAllLines(times);
      String[] f = lines.get(lines.size() - 1).trim().split("\\s+");
      user = Math.round(Double.parseDouble(f[0]) * 1000);
      sys = Math.round(Double.parseDouble(f[1]) * 1000);
      rssMb = Math.round(Long.parseLong(f[2]) / 1024.0);
    }
    long cpu = user < 0 ? -1 : user + sys;
    long other = busy < 0 || cpu < 0 ? -1 : Math.max(0, busy - cpu);
    return new Result(code, wallMs, cpu, user, sys, rssMb, other, out, err);
  }

  /** Busy CPU time of the whole machine so far (all cores), from {@code /proc/stat}; -1 where there is none. */
  static long machineBusyMs() {
    try {
      String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long ticks = 0;
      for (int i = 1; i < f.length && i <= 8; i++) {
        if (i != 4 && i != 5) {   // idle and iowait are not busy
          ticks += Long.parseLong(f[i]);
        }
      }
      return ticks * 10;   // USER_HZ is 100 on Linux
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
