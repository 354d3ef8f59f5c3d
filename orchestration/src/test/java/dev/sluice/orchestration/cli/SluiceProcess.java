package dev.sluice.orchestration.cli;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** Runs {@code sluice} in a child JVM, as a user would, and captures what it printed and its exit code. */
public final class SluiceProcess {
  private SluiceProcess() {}

  /** What a run of the command left behind. */
  record Result(int exitCode, String out, String err) {
    List<String> outLines() {
      return out.lines().toList();
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  static Result run(Path workingDir, Map<String, String> env, String... args) {
    return run(workingDir, env, List.of(), args);
  }

  /** {@code jvmOptions}: more options of the child JVM (system properties, diagnostics). */
  static Result run(Path workingDir, Map<String, String> env, List<String> jvmOptions, String... args) {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", classpath(), SluiceCli.class.getName()));
    command.addAll(Arrays.asList(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(workingDir.toFile());
    pb.environment().keySet().removeIf(k -> k.equals("SLUICE_WAREHOUSE") || k.equals("ORDERS_INPUT")
        || k.equals("CUSTOMERS_INPUT"));
    pb.environment().putAll(env);
    try {
      Path out = Files.createTempFile(workingDir, "out", ".txt");
      Path err = Files.createTempFile(workingDir, "err", ".txt");
      pb.redirectOutput(out.toFile()).redirectError(err.toFile());
      Process p = pb.start();
      if (!p.waitFor(90, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("sluice " + String.join(" ", args) + " did not finish within 90 s");
      }
      Result r = new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
      Files.delete(out);
      Files.delete(err);
      return r;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * The test classpath (Surefire and Failsafe publish it as {@code surefire.test.class.path}) without test
   * classes, ours or a module's test jar (they hold a logback-test.xml, which logback prefers), so the child logs
   * with the CLI's own logging set-up ({@link CliLogging}), as a user's run does.
   */
  public static String classpath() {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return Arrays.stream(cp.split(File.pathSeparator))
        .filter(e -> !e.endsWith("test-classes") && !e.endsWith("test-classes" + File.separator)
            && !e.endsWith("-tests.jar"))
        .collect(Collectors.joining(File.pathSeparator));
  }
}
