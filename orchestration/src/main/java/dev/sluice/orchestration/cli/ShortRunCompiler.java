package dev.sluice.orchestration.cli;

import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the JVM compiles a finite run ({@code -Dsluice.compiler=auto|full|quick}; default {@code auto} in a process
 * the {@code sluice} command started, {@code full} when the CLI runs inside another program, such as a test, whose
 * JVM it doesn't own). A run over a
 * small backlog (a scheduled increment, or nothing new) lasts a few seconds, and on two cores the optimising compiler
 * (C2) then takes more CPU than the pipelines: it compiles methods the run has nearly finished with. {@code quick}
 * keeps the JIT to C1 (a HotSpot compiler directive that excludes C2, added through the JVM's diagnostic command
 * bean; methods compile at C1's full-speed level instead), which halved an increment's CPU and took a quarter off its
 * wall time; a long run wants C2's code. {@code auto} picks {@code quick} when every selected pipeline's backlog is
 * known and small (new landing files of at most 64 MB in all, at most 4 upstream commits each, no Kafka source: its
 * backlog would need a broker round trip first) and {@code full} otherwise. The choice is for the whole process and
 * can't be undone (a method C2 skipped stays at C1), so it is made once, before any pipeline runs.
 */
final class ShortRunCompiler {
  static final String PROPERTY = "sluice.compiler";
  static final long MAX_FILE_BYTES = 64L << 20;
  static final long MAX_COMMITS = 4;
  /** A medium run: landing files up to this size in all (the 2 M-event medallion is 319 MB). */
  static final long MAX_MEDIUM_FILE_BYTES = 512L << 20;
  static final long MAX_MEDIUM_COMMITS = 64;
  /**
   * HotSpot options of a medium run's JVM: C2 compiles a method later (Tier4 thresholds three times the defaults) and
   * inlines less (FreqInlineSize 100, InlineSmallCode 1000). A run of a few hundred MB lasts ~15 s on two cores, and
   * the optimising compiler took 8-10 s of its ~25 s of CPU, 654 of its 1,701 compilations recompiling; with these
   * the 2 M-event medallion took 13.2 s instead of 14.5 s (medians of 8 and 5 alternated runs, 2026-12-05) and ~15 %
   * less CPU. A long run keeps the defaults: the less inlined code was slower over 20 M events (README, Performance).
   * Sluice's own methods compile at a third of those thresholds (about HotSpot's defaults): the loops a batch runs
   * through are few and hot and reach C2 sooner, where the libraries' many methods still wait; the medallion then took
   * 11.5 s instead of 11.9 s (medians of 5 alternated runs, 2026-12-06). {@code quiet} keeps the JVM from announcing
   * the command on standard output.
   */
  static final List<String> MEDIUM_RUN_OPTIONS = List.of("-XX:FreqInlineSize=100", "-XX:InlineSmallCode=1000",
      "-XX:Tier4InvocationThreshold=15000", "-XX:Tier4MinInvocationThreshold=1800",
      "-XX:Tier4CompileThreshold=45000", "-XX:Tier4BackEdgeThreshold=120000", "-XX:CompileCommand=quiet",
      "-XX:CompileCommand=option,dev/sluice/*.*,double,CompileThresholdScaling,0.33");
  private static final Logger LOG = LoggerFactory.getLogger(ShortRunCompiler.class);
  private static final String DIRECTIVE = "[{match: \"*.*\", c2: {Exclude: true}}]";

  enum Mode { AUTO, FULL, QUICK }

  /** Set by {@link SluiceCli#main}: the JVM is the command's own. */
  private static volatile boolean ownProcess;

  private ShortRunCompiler() {}

  static void ownsProcess() {
    ownProcess = true;
  }

  /**
   * The mode {@code sluice.compiler} asks for.
   *
   * @throws CliException naming the property and its values when it holds something else
   */
  static Mode mode() {
    String value = System.getProperty(PROPERTY, ownProcess ? "auto" : "full").trim().toLowerCase(Locale.ROOT);
    return switch (value) {
      case "auto" -> Mode.AUTO;
      case "full" -> Mode.FULL;
      case "quick" -> Mode.QUICK;
      default -> throw CliException.usage("System property " + PROPERTY + " must be auto, full or quick, not '"
          + System.getProperty(PROPERTY) + "' (SLUICE_JAVA_OPTS=-D" + PROPERTY + "=full compiles as usual)");
    };
  }

  /** Whether a finite run of {@code pipelines} is short enough for {@code quick} under {@code auto}. */
  static boolean isShort(SluiceSession session, SluiceConfig config, List<PipelineConfig> pipelines) {
    return isShort(pipelines, p -> Backlog.of(session, config, p));
  }

  /** Same, with the backlogs from {@code backlogs}. */
  static boolean isShort(List<PipelineConfig> pipelines, java.util.function.Function<PipelineConfig, Backlog> backlogs) {
    return within(pipelines, backlogs, MAX_FILE_BYTES, MAX_COMMITS);
  }

  /** Whether a finite run of {@code pipelines}, not short, is a medium one ({@link #MEDIUM_RUN_OPTIONS}). */
  static boolean isMedium(List<PipelineConfig> pipelines, java.util.function.Function<PipelineConfig, Backlog> backlogs) {
    return within(pipelines, backlogs, MAX_MEDIUM_FILE_BYTES, MAX_MEDIUM_COMMITS);
  }

  /** Every backlog known, no Kafka source, at most {@code maxCommits} each and {@code maxBytes} of files in all. */
  private static boolean within(List<PipelineConfig> pipelines,
      java.util.function.Function<PipelineConfig, Backlog> backlogs, long maxBytes, long maxCommits) {
    long fileBytes = 0;
    for (PipelineConfig p : pipelines) {
      if (p.source().kafka().isPresent()) {
        return false;
      }
      Backlog b = backlogs.apply(p);
      if (!b.small(maxBytes, maxCommits, 0)) {
        return false;
      }
      fileBytes += b.bytes();
    }
    return fileBytes <= maxBytes;
  }

  /**
   * Applies {@code mode} to this JVM for a finite run of {@code pipelines} on a thread of its own, so that neither
   * the backlog listing nor the management bean (~0.2 s) delays the run: C2 starts compiling a run's hot methods
   * only after thousands of calls. The future tells whether C2 is off; it never fails (a JVM that refuses the
   * directive just compiles as usual).
   */
  static java.util.concurrent.CompletableFuture<Boolean> applyInBackground(Mode mode, List<PipelineConfig> pipelines,
      java.util.function.Function<PipelineConfig, Backlog> backlogs) {
    java.util.concurrent.CompletableFuture<Boolean> done = new java.util.concurrent.CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        done.complete(apply(mode, pipelines, backlogs));
      } catch (RuntimeException | Error e) {
        LOG.debug("Could not decide how to compile this run; compiling as usual: {}", e.toString());
        done.complete(false);
      }
    }, "sluice-compiler-policy");
    t.setDaemon(true);
    t.start();
    return done;
  }

  /** Whether a finite run of {@code pipelines} should compile with C1 only under {@code mode}. */
  static boolean wantsQuick(Mode mode, List<PipelineConfig> pipelines,
      java.util.function.Function<PipelineConfig, Backlog> backlogs) {
    return mode == Mode.QUICK || (mode == Mode.AUTO && isShort(pipelines, backlogs));
  }

  /** Applies {@code mode} to this JVM before a finite run of {@code pipelines}; returns whether C2 is now off. */
  static boolean apply(Mode mode, List<PipelineConfig> pipelines,
      java.util.function.Function<PipelineConfig, Backlog> backlogs) {
    if (!wantsQuick(mode, pipelines, backlogs)) {
      return false;
    }
    try {
      Path file = Files.createTempFile("sluice-c1-", ".json");
      try {
        Files.writeString(file, DIRECTIVE);
        ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
            "compilerDirectivesAdd", new Object[] {new String[] {file.toString()}},
            new String[] {String[].class.getName()});
      } finally {
        Files.deleteIfExists(file);
      }
      LOG.debug("A short run: compiling with C1 only ({}={}; -D{}=full compiles as usual)", PROPERTY,
          mode.name().toLowerCase(Locale.ROOT), PROPERTY);
      return true;
    } catch (Exception | LinkageError e) {
      LOG.debug("Could not turn the optimising compiler off for a short run; compiling as usual: {}", e.toString());
      return false;
    }
  }
}
