package dev.sluice.orchestration.cli;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * How a {@code sluice run} process starts: with C1 only, and in a JVM with the optimising compiler as well when the
 * run turns out not to be short. The launcher starts a run's JVM with {@code -XX:TieredStopAtLevel=1} and
 * {@value #STARTED_PROPERTY}{@code =quick}: a scheduled increment then compiles each hot method once, at C1's
 * full-speed level, where a JVM that turns C2 off only once it knows the backlog ({@link ShortRunCompiler}) had
 * already spent C2 on start-up code and compiled every hot method twice (profiled, then again): the +1 % increment
 * took 2.29 s instead of 2.78 s (median of 8 alternated pairs) and a quarter less CPU. A C1-only JVM can't turn C2
 * on again, so when the backlog is large, unknown (Kafka) or the run continuous, the command runs again in a JVM
 * with the same options minus those two, before any pipeline starts (~0.5 s of a run that lasts minutes; it
 * prints nothing twice). That JVM halts when the first one disappears (kill -9 of the {@code sluice} process), as
 * it would have died with it; a SIGTERM or Ctrl-C reaches it and stops its queries at a batch boundary.
 */
final class CompilerRestart {
  static final String STARTED_PROPERTY = "sluice.compiler.started";
  static final String PARENT_PROPERTY = "sluice.compiler.parent";
  /** Set in a JVM restarted with {@link ShortRunCompiler#MEDIUM_RUN_OPTIONS}, for the run report. */
  static final String MEDIUM_PROPERTY = "sluice.compiler.medium";
  private static final Set<String> QUICK_START_OPTIONS =
      Set.of("-XX:TieredStopAtLevel=1", "-D" + STARTED_PROPERTY + "=quick");
  private static final long PARENT_POLL_MS = 100;

  private static volatile String[] commandArgs = new String[0];

  private CompilerRestart() {}

  /** Set by {@link SluiceCli#main}: the command's arguments, for the restart. */
  static void commandArgs(String[] args) {
    commandArgs = args.clone();
  }

  /** Whether the launcher started this JVM with C1 only for a run. */
  static boolean startedQuick() {
    return "quick".equals(System.getProperty(STARTED_PROPERTY));
  }

  /** Whether this JVM was restarted with {@link ShortRunCompiler#MEDIUM_RUN_OPTIONS}. */
  static boolean restartedMedium() {
    return Boolean.getBoolean(MEDIUM_PROPERTY);
  }

  /**
   * The restarted JVM's options: {@code extra} first, so that an option this JVM was started with (SLUICE_JAVA_OPTS)
   * comes later and wins, then this JVM's own options without the C1-only start.
   */
  static List<String> jvmOptions(List<String> inputArguments, List<String> extra) {
    List<String> out = new ArrayList<>(extra);
    if (!extra.isEmpty()) {
      out.add("-D" + MEDIUM_PROPERTY + "=true");
    }
    for (String option : inputArguments) {
      if (!QUICK_START_OPTIONS.contains(option)) {
        out.add(option);
      }
    }
    return out;
  }

  /**
   * Runs this command again in a JVM with the full compiler (and {@code extra} HotSpot options), standard input and
   * output shared, and returns its exit code. A SIGTERM or Ctrl-C of this process is passed on and waited for.
   */
  static int runWithFullCompiler(List<String> extra) {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(jvmOptions(ManagementFactory.getRuntimeMXBean().getInputArguments(), extra));
    command.add("-D" + ShortRunCompiler.PROPERTY + "=full");
    command.add("-D" + PARENT_PROPERTY + "=" + ProcessHandle.current().pid());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SluiceCli.class.getName());
    command.addAll(List.of(commandArgs));
    Process child;
    try {
      child = new ProcessBuilder(command).inheritIO().start();
    } catch (java.io.IOException e) {
      throw CliException.failed("Could not start a JVM with the optimising compiler for this run (" + e.getMessage()
          + "); SLUICE_JAVA_OPTS=-D" + ShortRunCompiler.PROPERTY + "=full starts with it at once");
    }
    Thread passOn = new Thread(() -> {
      child.destroy();
      waitFor(child);
    }, "sluice-stop-child");
    Runtime.getRuntime().addShutdownHook(passOn);
    int code = waitFor(child);
    try {
      Runtime.getRuntime().removeShutdownHook(passOn);
    } catch (IllegalStateException e) {
      // shutting down: the hook has passed the signal on and waits for the child
    }
    return code;
  }

  /**
   * In a JVM {@link #runWithFullCompiler} started: halts it when the process that started it is gone, which only a
   * kill -9 of that process does (it otherwise waits for this one). A run started right after that kill takes the
   * dead runner's lease over at once only once this JVM is gone too; it reaches its lease ~0.5 s after it starts,
   * well after a poll ({@value #PARENT_POLL_MS} ms) has seen the parent gone.
   */
  static void haltWithParent() {
    String parent = System.getProperty(PARENT_PROPERTY);
    if (parent == null) {
      return;
    }
    long pid = Long.parseLong(parent.trim());
    Thread watch = new Thread(() -> {
      while (ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L) == pid) {
        try {
          Thread.sleep(PARENT_POLL_MS);
        } catch (InterruptedException e) {
          return;
        }
      }
      Runtime.getRuntime().halt(ExitCodes.FAILED);
    }, "sluice-parent-watch");
    watch.setDaemon(true);
    watch.start();
  }

  private static int waitFor(Process child) {
    while (true) {
      try {
        return child.waitFor();
      } catch (InterruptedException e) {
        // keep waiting: this process must not end before the run it started
      }
    }
  }
}
