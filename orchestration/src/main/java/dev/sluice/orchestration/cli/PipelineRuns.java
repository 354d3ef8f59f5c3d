package dev.sluice.orchestration.cli;

import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TriggerConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.StreamingQueryException;
import dev.sluice.ingestion.Trigger;
import dev.sluice.orchestration.PipelineGraph;
import dev.sluice.orchestration.PipelineRunner;
import dev.sluice.orchestration.Sessions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs pipelines for the CLI in dependency order, with progress and a one-line summary per pipeline.
 * Ctrl-C or SIGTERM stops the queries at a batch boundary (nothing half-committed) through a shutdown
 * hook, and no further pipeline is started.
 */
final class PipelineRuns implements AutoCloseable {
  private final SluiceConfig config;
  private final Terminal terminal;
  private final SluiceSession session;
  private final Thread hook;
  private final CountDownLatch closed = new CountDownLatch(1);
  private volatile boolean stopping;
  /** Landing-file backlogs, computed once per run: the compiler policy's thread and the progress both want them. */
  private final Map<String, java.util.concurrent.CompletableFuture<Backlog>> landingBacklogs =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** How one pipeline's run ended. */
  record Outcome(String pipeline, boolean succeeded, long batches, long rowsIn, Map<String, Long> ledger,
      String message) {}

  PipelineRuns(SluiceConfig config, Terminal terminal) {
    this(config, terminal, java.time.Duration.ZERO);
  }

  /** {@code leaseWait}: how long each query waits for another live runner of it (sluice run --wait). */
  PipelineRuns(SluiceConfig config, Terminal terminal, java.time.Duration leaseWait) {
    this(config, terminal, leaseWait, PipelineRuns.class.getClassLoader());
  }

  /** {@code plugins}: where {@code process.class} is loaded from (sluice run --jars, the plugins/ folder). */
  PipelineRuns(SluiceConfig config, Terminal terminal, java.time.Duration leaseWait, ClassLoader plugins) {
    this.config = config;
    this.terminal = terminal;
    this.session = Sessions.builder(config).runnerLeaseWait(leaseWait).pluginClassLoader(plugins).build();
    this.hook = new Thread(this::stopFromSignal, "sluice-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  SluiceSession session() {
    return session;
  }

  /**
   * The backlog of {@code p} now. A landing-file backlog doesn't change with what this run's other pipelines do, so
   * it is computed once (by whichever thread asks first; the other waits for it): listing the landing folder and
   * reading the source's file log took ~0.15 s of a short run, twice. An upstream table's backlog is computed afresh,
   * as the upstream pipeline commits to it during the run.
   */
  Backlog backlog(PipelineConfig p) {
    if (p.source().path().isEmpty()) {
      return Backlog.of(session, config, p);
    }
    java.util.concurrent.CompletableFuture<Backlog> mine = new java.util.concurrent.CompletableFuture<>();
    java.util.concurrent.CompletableFuture<Backlog> known = landingBacklogs.putIfAbsent(p.name(), mine);
    if (known != null) {
      return known.join();
    }
    Backlog b = Backlog.of(session, config, p);
    mine.complete(b);
    return b;
  }

  /** Runs each pipeline's backlog with availableNow, upstream first; a pipeline whose upstream failed is skipped. */
  List<Outcome> runAvailableNow(List<PipelineConfig> pipelines) {
    List<Outcome> out = new ArrayList<>();
    Set<String> failed = new LinkedHashSet<>();
    for (PipelineConfig p : pipelines) {
      Optional<Outcome> blocked = blocked(p, failed);
      if (blocked.isPresent()) {
        out.add(report(blocked.get()));
        failed.add(p.name());
        continue;
      }
      RunProgress progress = new RunProgress(terminal, p.name(), () -> backlog(p), true);
      session.streams().addListener(progress);
      long started = System.nanoTime();
      PipelineRunner.RunResult r;
      try {
        progress.begin();
        r = PipelineRunner.runOne(session, config, p);
      } finally {
        session.streams().removeListener(progress);
        progress.end();
      }
      long ms = (System.nanoTime() - started) / 1_000_000;
      Outcome o = r.succeeded()
          ? new Outcome(p.name(), true, r.progress().size(), progress.rows(), Ledger.sum(r.progress()),
              summary(r, ms))
          : new Outcome(p.name(), false, progress.batches(), progress.rows(), Map.of(), failure(r.failure()));
      out.add(report(o));
      if (!o.succeeded()) {
        failed.add(p.name());
      }
    }
    return out;
  }

  /**
   * Runs each pipeline with its configured trigger: finite ones (availableNow, once) to the end before
   * their downstreams start, processing-time ones until stopped (Ctrl-C, SIGTERM) or failed.
   */
  List<Outcome> runConfigured(List<PipelineConfig> pipelines) {
    List<Outcome> out = new ArrayList<>();
    Set<String> failed = new LinkedHashSet<>();
    List<StreamingQuery> continuous = new ArrayList<>();
    for (PipelineConfig p : pipelines) {
      Optional<Outcome> blocked = blocked(p, failed);
      if (blocked.isPresent()) {
        out.add(report(blocked.get()));
        failed.add(p.name());
        continue;
      }
      Trigger trigger = trigger(p.trigger());
      if (!awaitSourceTable(p, continuous)) {
        out.add(report(new Outcome(p.name(), false, 0, 0, Map.of(), stopping ? "not run: stopped by a signal"
            : "not run: its upstream stopped before writing " + p.source().table().orElse("its table"))));
        failed.add(p.name());
        continue;
      }
      // Several continuous queries print at once: plain lines, never a redrawn bar.
      RunProgress progress = new RunProgress(terminal, p.name(),
          () -> trigger.isFinite() ? Backlog.of(session, config, p) : Backlog.unknown(), trigger.isFinite());
      session.streams().addListener(progress);
      long started = System.nanoTime();
      StreamingQuery q;
      try {
        q = PipelineRunner.start(session, config, p, trigger);
      } catch (RuntimeException e) {
        session.streams().removeListener(progress);
        out.add(report(new Outcome(p.name(), false, 0, 0, Map.of(), "could not start: " + SluiceCli.describe(e))));
        failed.add(p.name());
        continue;
      }
      if (!trigger.isFinite()) {
        terminal.info(p.name() + ": running every " + ((TriggerConfig.ProcessingTime) p.trigger()).interval()
            + " (Ctrl-C stops it at a batch boundary)");
        continuous.add(q);
        continue;
      }
      progress.begin();
      try {
        q.awaitTermination();
        out.add(report(new Outcome(p.name(), true, progress.batches(), progress.rows(), Map.of(),
            Values.count(progress.batches()) + " batches, " + Values.count(progress.rows()) + " rows in "
                + Values.duration((System.nanoTime() - started) / 1_000_000))));
      } catch (StreamingQueryException e) {
        out.add(report(new Outcome(p.name(), false, progress.batches(), progress.rows(), Map.of(), failure(Optional.of(e)))));
        failed.add(p.name());
      } finally {
        session.streams().removeListener(progress);
        progress.end();
      }
    }
    out.addAll(awaitContinuous(continuous));
    return out;
  }

  /**
   * A downstream of a continuous pipeline can only start once that pipeline has created its table: waits
   * for it while an upstream query still runs. False when it never appeared.
   */
  private boolean awaitSourceTable(PipelineConfig p, List<StreamingQuery> running) {
    if (p.source().table().isEmpty()) {
      return true;
    }
    String name = p.source().table().get();
    dev.sluice.table.Table source = session.table(config.tableUri(name).toString());
    boolean told = false;
    while (!source.exists()) {
      if (running.isEmpty()) {
        return true;   // nothing running will create it: starting reports why (the layer's message)
      }
      if (stopping || running.stream().noneMatch(StreamingQuery::isActive)) {
        return false;
      }
      if (!told) {
        terminal.info(p.name() + ": waiting for " + name + " (its upstream has not written its first batch yet)");
        told = true;
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  private List<Outcome> awaitContinuous(List<StreamingQuery> queries) {
    List<Outcome> out = new ArrayList<>();
    List<StreamingQuery> left = new ArrayList<>(queries);
    while (!left.isEmpty()) {
      session.streams().awaitAnyTermination(Duration.ofSeconds(1));
      session.streams().resetTerminated();
      for (StreamingQuery q : List.copyOf(left)) {
        if (q.isActive()) {
          continue;
        }
        left.remove(q);
        Optional<StreamingQueryException> e = q.exception();
        out.add(report(e.isPresent() ? new Outcome(q.name(), false, 0, 0, Map.of(), failure(e))
            : new Outcome(q.name(), true, 0, 0, Map.of(), "stopped after " + q.recentProgress().size() + " recent batches")));
        if (e.isPresent()) {
          // One continuous pipeline failed: stop the others cleanly so that the exit code reports it.
          left.forEach(StreamingQuery::stop);
        }
      }
    }
    return out;
  }

  private Optional<Outcome> blocked(PipelineConfig p, Set<String> failed) {
    if (stopping) {
      return Optional.of(new Outcome(p.name(), false, 0, 0, Map.of(), "not run: stopped by a signal"));
    }
    List<String> by = PipelineGraph.upstream(p).stream().filter(failed::contains).toList();
    return by.isEmpty() ? Optional.empty()
        : Optional.of(new Outcome(p.name(), false, 0, 0, Map.of(), "not run because its upstream " + by + " failed"));
  }

  private Outcome report(Outcome o) {
    if (o.succeeded()) {
      terminal.info("ok      " + o.pipeline() + "  " + o.message());
    } else {
      terminal.error("FAILED  " + o.pipeline() + "  " + o.message());
    }
    return o;
  }

  private static String summary(PipelineRunner.RunResult r, long ms) {
    List<dev.sluice.ingestion.QueryProgress> counted = Ledger.committedHere(r.progress());
    long replayed = r.progress().size() - counted.size();
    long rows = counted.stream().mapToLong(p -> p.numInputRows()).sum();
    String ledger = Ledger.text(Ledger.sum(r.progress()));
    return Values.count(r.progress().size()) + (r.progress().size() == 1 ? " batch" : " batches")
        + (replayed == 0 ? "" : " (" + Values.count(replayed) + " re-run after a crash and found already committed,"
            + " not counted again)")
        + ", " + Values.count(rows) + " rows in " + Values.duration(ms) + (ledger.isEmpty() ? "" : "  [" + ledger + "]");
  }

  private String failure(Optional<StreamingQueryException> e) {
    if (e.isEmpty()) {
      return "failed";
    }
    if (terminal.verbose()) {
      java.io.StringWriter w = new java.io.StringWriter();
      e.get().printStackTrace(new java.io.PrintWriter(w));
      return SluiceCli.describe(e.get()) + "\n" + w;
    }
    return SluiceCli.describe(e.get());
  }

  static Trigger trigger(TriggerConfig t) {
    if (t instanceof TriggerConfig.ProcessingTime pt) {
      return Trigger.processingTime(pt.interval().duration());
    }
    return t instanceof TriggerConfig.Once ? Trigger.once() : Trigger.availableNow();
  }

  private void stopFromSignal() {
    stopping = true;
    terminal.error("Stopping: each query finishes or abandons its current batch (nothing is half-committed)...");
    session.close();
    try {
      // Let the main thread print its summary and release the session before the JVM exits.
      closed.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    session.close();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down: the hook is running and waits for this
    }
    closed.countDown();
  }
}
