package dev.sluice.orchestration.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.sluice.config.PipelineConfig;
import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.StreamingQueryException;
import dev.sluice.ingestion.StreamingQueryListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code sluice run --report-json FILE}: per pipeline (stage) wall time, process CPU time (all threads, GC and
 * JIT included), CPU/wall, rows and ledger, and the peak used heap sampled every {@value #SAMPLE_MS} ms, written
 * as one JSON object when the run ends; on Linux also the bytes each stage read and wrote (the process's read and
 * write calls, {@code rchar}/{@code wchar} of {@code /proc/self/io}: tables, logs, state and spill files alike; the
 * stages run one after another, so each delta is its own). For benchmarks: the figures come from inside the process, so they do not
 * include JVM start or config loading, which the process's own wall time does.
 */
final class RunReport implements StreamingQueryListener, AutoCloseable {
  static final long SAMPLE_MS = 20;
  private static final double MB = 1024.0 * 1024.0;

  private final Path file;
  private final SluiceSession session;
  private final Map<String, String> layers = new LinkedHashMap<>();
  private final Map<String, Stage> stages = new LinkedHashMap<>();
  private final long startedNanos = System.nanoTime();
  private final long startedCpu = processCpuNanos();
  private final long startedGc = gcMillis();
  private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
  private final AtomicLong peakHeap = new AtomicLong();
  private final AtomicLong stagePeakHeap = new AtomicLong();
  private final Thread sampler;
  private volatile String compiler = "full";
  private volatile boolean closed;

  /** A report written to {@code file} when the run ends; {@code file} null: a report that does nothing. */
  static RunReport open(Path file, SluiceSession session, List<PipelineConfig> pipelines) {
    return new RunReport(file, session, pipelines);
  }

  private RunReport(Path file, SluiceSession session, List<PipelineConfig> pipelines) {
    this.file = file;
    this.session = session;
    pipelines.forEach(p -> layers.put(p.name(), p.layer().name().toLowerCase(Locale.ROOT)));
    if (file == null) {
      sampler = null;
      return;
    }
    sampler = new Thread(this::sample, "sluice-report-heap");
    sampler.setDaemon(true);
    sample1();
    sampler.start();
    session.streams().addListener(this);
  }

  @Override
  public void onQueryStarted(StreamingQuery query) {
    stagePeakHeap.set(heapUsed());
    synchronized (stages) {
      stages.put(query.name(), new Stage(System.nanoTime(), processCpuNanos(), gcMillis(), processIo()));
    }
  }

  @Override
  public void onQueryProgress(StreamingQuery query, QueryProgress progress) {
    synchronized (stages) {
      Stage s = stages.get(query.name());
      if (s != null) {
        s.progress.add(progress);
      }
    }
  }

  @Override
  public void onQueryTerminated(StreamingQuery query, StreamingQueryException failure) {
    long now = System.nanoTime();
    long cpu = processCpuNanos();
    synchronized (stages) {
      Stage s = stages.get(query.name());
      if (s != null) {
        s.end(now, cpu, gcMillis(), Math.max(stagePeakHeap.get(), heapUsed()), processIo());
        stages.notifyAll();
      }
    }
  }

  /** How the JIT compiles this run ({@link ShortRunCompiler}): {@code quick} (C1 only) or {@code full}. */
  void compiler(String mode) {
    compiler = mode;
  }

  /** Writes the report (no-op without a file) after the runs ended with {@code outcomes}. */
  void finish(List<PipelineRuns.Outcome> outcomes) {
    if (file == null) {
      return;
    }
    long wallNanos = System.nanoTime() - startedNanos;
    long cpuNanos = processCpuNanos() - startedCpu;
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("wall_ms", wallNanos / 1_000_000);
    out.put("cpu_ms", cpuNanos / 1_000_000);
    out.put("cpu_per_wall", ratio(cpuNanos, wallNanos));
    out.put("jvm_uptime_ms", ManagementFactory.getRuntimeMXBean().getUptime());
    out.put("process_cpu_ms", processCpuNanos() / 1_000_000);
    out.put("heap_max_mb", Math.round(memory.getHeapMemoryUsage().getMax() / MB));
    out.put("peak_heap_used_mb", Math.round(Math.max(peakHeap.get(), heapUsed()) / MB));
    out.put("heap_sample_ms", SAMPLE_MS);
    out.put("gc_ms", gcMillis() - startedGc);
    out.put("compiler", compiler);
    out.put("tiered_stop_at_level", tieredStopAtLevel());
    out.put("succeeded", outcomes.stream().allMatch(PipelineRuns.Outcome::succeeded));
    List<Map<String, Object>> list = new ArrayList<>();
    synchronized (stages) {
      awaitTerminations();
      for (PipelineRuns.Outcome o : outcomes) {
        list.add(stage(o, stages.get(o.pipeline())));
      }
    }
    out.put("stages", list);
    try {
      if (file.toAbsolutePath().getParent() != null) {
        Files.createDirectories(file.toAbsolutePath().getParent());
      }
      Files.writeString(file, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(out));
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write the run report " + file + ": " + e.getMessage()
          + "; check that its folder is writable", e);
    }
  }

  private Map<String, Object> stage(PipelineRuns.Outcome o, Stage s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("pipeline", o.pipeline());
    m.put("layer", layers.getOrDefault(o.pipeline(), "unknown"));
    m.put("succeeded", o.succeeded());
    m.put("batches", o.batches());
    m.put("rows_in", o.rowsIn());
    m.put("ledger", o.ledger());
    if (s != null && s.ended) {
      long wall = s.endNanos - s.startNanos;
      m.put("wall_ms", wall / 1_000_000);
      m.put("cpu_ms", (s.endCpu - s.startCpu) / 1_000_000);
      m.put("cpu_per_wall", ratio(s.endCpu - s.startCpu, wall));
      m.put("rows_per_s", wall == 0 ? 0 : Math.round(o.rowsIn() * 1e9 / wall));
      m.put("gc_ms", s.endGc - s.startGc);
      m.put("peak_heap_used_mb", Math.round(s.peakHeap / MB));
      if (s.startIo != null && s.endIo != null) {
        m.put("read_bytes", s.endIo[0] - s.startIo[0]);
        m.put("written_bytes", s.endIo[1] - s.startIo[1]);
      }
      m.put("batch_ms", s.progress.stream().map(QueryProgress::batchDuration).toList());
    }
    return m;
  }

  /** A query reports its termination on its own thread, just after the runner saw it end. */
  private void awaitTerminations() {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (stages.values().stream().anyMatch(s -> !s.ended) && System.nanoTime() < deadline) {
      try {
        stages.wait(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void sample() {
    while (!closed) {
      sample1();
      try {
        Thread.sleep(SAMPLE_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void sample1() {
    long used = heapUsed();
    peakHeap.accumulateAndGet(used, Math::max);
    stagePeakHeap.accumulateAndGet(used, Math::max);
  }

  private long heapUsed() {
    return memory.getHeapMemoryUsage().getUsed();
  }

  private static double ratio(long cpuNanos, long wallNanos) {
    return wallNanos == 0 ? 0 : Math.round(cpuNanos * 100.0 / wallNanos) / 100.0;
  }

  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime() : -1;
  }

  /** {@code rchar} and {@code wchar} of this process, or null where {@code /proc/self/io} is not there to read. */
  private static long[] processIo() {
    try {
      long[] io = new long[2];
      for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
        if (line.startsWith("rchar:")) {
          io[0] = Long.parseLong(line.substring(6).trim());
        } else if (line.startsWith("wchar:")) {
          io[1] = Long.parseLong(line.substring(6).trim());
        }
      }
      return io;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static long gcMillis() {
    long sum = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      sum += Math.max(0, gc.getCollectionTime());
    }
    return sum;
  }

  @Override
  public void close() {
    if (file == null) {
      return;
    }
    closed = true;
    sampler.interrupt();
    session.streams().removeListener(this);
  }

  private static final class Stage {
    final long startNanos;
    final long startCpu;
    final long startGc;
    final long[] startIo;
    final List<QueryProgress> progress = new ArrayList<>();
    long endNanos;
    long endCpu;
    long endGc;
    long peakHeap;
    long[] endIo;
    boolean ended;

    Stage(long startNanos, long startCpu, long startGc, long[] startIo) {
      this.startNanos = startNanos;
      this.startCpu = startCpu;
      this.startGc = startGc;
      this.startIo = startIo;
    }

    void end(long nanos, long cpu, long gc, long heap, long[] io) {
      endIo = io;
      endNanos = nanos;
      endCpu = cpu;
      endGc = gc;
      peakHeap = heap;
      ended = true;
    }
  }

  /** The JVM's highest compilation tier: 4 with C2, 1 in a JVM started with C1 only ({@link CompilerRestart}). */
  private static int tieredStopAtLevel() {
    try {
      return Integer.parseInt(ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
          .getVMOption("TieredStopAtLevel").getValue());
    } catch (RuntimeException e) {
      return -1;
    }
  }
}
