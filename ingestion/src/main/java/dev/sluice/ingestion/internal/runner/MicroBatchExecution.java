package dev.sluice.ingestion.internal.runner;

import dev.sluice.ingestion.AnalysisException;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.QueryStatus;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.StreamingQueryException;
import dev.sluice.ingestion.StreamingQueryListener;
import dev.sluice.ingestion.Trigger;
import dev.sluice.ingestion.internal.checkpoint.CheckpointErrors;
import dev.sluice.ingestion.internal.checkpoint.CommitEntry;
import dev.sluice.ingestion.internal.checkpoint.OffsetEntry;
import dev.sluice.ingestion.internal.checkpoint.QueryCheckpoint;
import dev.sluice.ingestion.internal.checkpoint.QueryMetadata;
import dev.sluice.ingestion.internal.checkpoint.RunnerLease;
import dev.sluice.ingestion.internal.plan.InputPlan;
import dev.sluice.ingestion.internal.plan.MultiInputSpec;
import dev.sluice.ingestion.internal.plan.Transform;
import dev.sluice.ingestion.internal.plan.TransformSpec;
import dev.sluice.ingestion.internal.spill.BatchScope;
import dev.sluice.ingestion.sink.Sink;
import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceContext;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one streaming query as micro-batches on its own thread, with the protocol of DESIGN.md: for
 * batch N, (1) plan each source's end offset, (2) write {@code offsets/N} with put-if-absent, (3) read
 * and transform the rows in (end of N-1, end of N], (4) hand them to the sink, which commits with
 * {@code txn(query id, N)}, (5) write {@code commits/N}. On start, a batch with offsets but no commit
 * is re-run with exactly its recorded offsets; exactly-once follows from (2) and (4).
 */
public final class MicroBatchExecution implements StreamingQuery {
  private static final Logger LOG = LoggerFactory.getLogger(MicroBatchExecution.class);
  private static final int PROGRESS_KEPT = 100;
  private static final long IDLE_POLL_MS = 100;

  private final QuerySpec spec;
  private final SourceRegistry registry;
  private final Function<String, Location> resolver;
  private final Clock clock;
  private final List<StreamingQueryListener> listeners;
  private final Runnable onTerminated;
  private final UUID runId = UUID.randomUUID();
  private final Deque<QueryProgress> progress = new ArrayDeque<>();
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final Object monitor = new Object();
  private final BatchInterceptor interceptor;

  private volatile UUID id;
  private volatile boolean stopRequested;
  private volatile StreamingQueryException failure;
  private volatile QueryStatus status = new QueryStatus("Initializing", false, false);
  private long idleSince = -1;
  private Thread thread;
  private RunnerLease lease;

  public MicroBatchExecution(QuerySpec spec, SourceRegistry registry, Function<String, Location> resolver, Clock clock,
      List<StreamingQueryListener> listeners, Runnable onTerminated) {
    this.spec = spec;
    this.registry = registry;
    this.resolver = resolver;
    this.clock = clock;
    this.listeners = listeners;
    this.onTerminated = onTerminated;
    this.interceptor = spec.name() == null ? BatchInterceptor.NONE
        : BatchInterceptor.REGISTRY.getOrDefault(spec.name(), BatchInterceptor.NONE);
  }

  /**
   * Reads or creates the checkpoint metadata (so that {@link #id()} is known), opens the sources and binds the
   * plan to their schema, then starts the thread: a query that can't run fails here, not on its thread.
   *
   * @throws dev.sluice.ingestion.internal.checkpoint.QueryAlreadyActiveException if another runner created it concurrently
   * @throws AnalysisException for an unknown source format or option, or a column, function or expression that
   *     does not fit the source's schema
   */
  public void start() {
    QueryCheckpoint checkpoint = new QueryCheckpoint(spec.checkpoint());
    Map<String, String> fingerprint = PlanFingerprint.encode(spec.fingerprint());
    QueryMetadata metadata = checkpoint.metadata()
        .orElseGet(() -> checkpoint.create(UUID.randomUUID(), clock.instant(), fingerprint));
    // Before reading or writing anything else: a checkpoint written by a different stateful plan can't be reused.
    // One that never planned a batch holds no state (e.g. its query failed to start): it takes the new plan.
    if (checkpoint.latestOffsetsBatch().isPresent()) {
      PlanFingerprint.check(metadata, spec.fingerprint(), spec.checkpoint().toString());
    }
    if (!metadata.properties().equals(fingerprint)) {
      checkpoint.updateMetadata(new QueryMetadata(metadata.id(), metadata.createdAt(), fingerprint));
    }
    this.id = metadata.id();
    lease = new RunnerLease(spec.checkpoint(), runId, spec.runnerLeaseTimeout(), spec.runnerLeaseWait(), clock);
    lease.acquire(describe());
    List<Source> sources = new ArrayList<>();
    List<ReadLimit> limits = new ArrayList<>();
    ExecutionPlan plan;
    try {
      plan = analyze(checkpoint, sources, limits);
    } catch (RuntimeException e) {
      closeAll(sources);
      lease.release();
      throw e;
    }
    thread = new Thread(() -> run(checkpoint, sources, limits, plan), "sluice-query-"
        + (spec.name() == null ? id : spec.name()));
    thread.setDaemon(true);
    thread.start();
  }

  /** Opens the sources into {@code sources} and binds the plan to their schema. */
  private ExecutionPlan analyze(QueryCheckpoint checkpoint, List<Source> sources, List<ReadLimit> limits) {
    try {
      for (int i = 0; i < spec.sources().size(); i++) {
        SourceSpec s = spec.sources().get(i);
        RateLimits.Split split = RateLimits.split(s.format(), s.options());
        limits.add(split.limit());
        sources.add(registry.create(s.format(), new SourceContext(split.sourceOptions(), s.schema(), s.path(),
            checkpoint.sourceLocation(i), resolver, clock)));
      }
      return new ExecutionPlan(bindPlan(sources), checkpoint.stateLocation(), spec.maxWatermarkPolicy(),
          spec.maxFutureSkew(), id, spec.stateStore(), spec.checkpoint().toString());
    } catch (AnalysisException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      // Sources and steps report what is wrong with IllegalArgumentException; the query API promises Spark's type.
      AnalysisException analysis = new AnalysisException(e.getMessage());
      analysis.initCause(e);
      throw analysis;
    }
  }

  private void run(QueryCheckpoint checkpoint, List<Source> sources, List<ReadLimit> limits, ExecutionPlan bound) {
    try {
      for (StreamingQueryListener l : listeners) {
        l.onQueryStarted(this);
      }
      try (ExecutionPlan plan = bound) {
        LateRowsWriter late = spec.lateRowsTable().map(t -> new LateRowsWriter(t, id)).orElse(null);
        try (Sink sink = spec.sinkFactory().apply(id)) {
          new Loop(checkpoint, sources, limits, plan, sink, late).run();
        }
      }
      status = new QueryStatus("Stopped", false, false);
    } catch (Throwable t) {
      failure = t instanceof StreamingQueryException sqe ? sqe
          : new StreamingQueryException("Query " + describe() + " failed: " + t.getMessage(), id, t);
      status = new QueryStatus("Terminated with exception: " + t.getMessage(), false, false);
      LOG.error("Query {} failed", describe(), t);
    } finally {
      closeAll(sources);
      // A failed or stopped run is no longer active: a restart need not wait for the lease to expire.
      lease.release();
      onTerminated.run();
      terminated.countDown();
      synchronized (monitor) {
        monitor.notifyAll();
      }
      for (StreamingQueryListener l : listeners) {
        try {
          l.onQueryTerminated(this, failure);
        } catch (RuntimeException e) {
          LOG.warn("Listener failed on termination: {}", e.toString());
        }
      }
    }
  }

  private static void closeAll(List<Source> sources) {
    for (Source s : sources) {
      try {
        s.close();
      } catch (RuntimeException e) {
        LOG.warn("Closing source {} failed: {}", s.description(), e.toString());
      }
    }
  }

  private StructType unionSchema(List<Source> sources) {
    StructType first = sources.get(0).schema();
    for (Source s : sources) {
      if (!s.schema().equals(first)) {
        throw new IllegalArgumentException("All sources of a query must have one schema to be unioned, but "
            + sources.get(0).description() + " has " + first + " and " + s.description() + " has " + s.schema());
      }
    }
    return first;
  }

  /** Binds the steps; a plan that starts with a join or union of streams binds to each source's schema. */
  private List<Transform> bindPlan(List<Source> sources) {
    if (spec.transforms().isEmpty() || !(spec.transforms().get(0) instanceof MultiInputSpec)) {
      return bind(unionSchema(sources));
    }
    List<StructType> schemas = new ArrayList<>();
    sources.forEach(s -> schemas.add(s.schema()));
    return InputPlan.bind(schemas, 0, schemas.size(), spec.transforms()).steps();
  }

  private List<Transform> bind(StructType input) {
    List<Transform> plan = new ArrayList<>();
    StructType schema = input;
    for (TransformSpec t : spec.transforms()) {
      Transform bound = t.bind(schema);
      plan.add(bound);
      schema = bound.schema();
    }
    return plan;
  }

  /** The batch loop, with the state of one run. */
  private final class Loop {
    private final QueryCheckpoint checkpoint;
    private final List<Source> sources;
    private final List<ReadLimit> limits;
    private final ExecutionPlan plan;
    private final Sink sink;
    private final LateRowsWriter late;
    private long watermark;
    private long lastBatchWatermark;
    private final boolean availableNow = spec.trigger() instanceof Trigger.AvailableNow;
    private final boolean once = spec.trigger() instanceof Trigger.Once;
    private List<Optional<SourceOffset>> committed;
    private long nextBatch;
    private long previousBatchStart = -1;

    Loop(QueryCheckpoint checkpoint, List<Source> sources, List<ReadLimit> limits, ExecutionPlan plan, Sink sink,
        LateRowsWriter late) {
      this.checkpoint = checkpoint;
      this.sources = sources;
      this.limits = limits;
      this.plan = plan;
      this.sink = sink;
      this.late = late;
    }

    void run() {
      resume();
      if (availableNow || once) {
        // Once takes what is available now as well: fixing it at start lets a source wait for data landing now.
        sources.forEach(Source::prepareForAvailableNow);
      }
      while (!stopRequested) {
        lease.heartbeat();
        long started = clock.millis();
        boolean ran = runOneBatch();
        if (!ran && spec.trigger().isFinite()) {
          return;
        }
        if (once && ran) {
          return;
        }
        waitForNextTrigger(started, ran);
      }
    }

    /** Finds where the previous run stopped; re-runs an uncommitted batch with exactly its offsets. */
    private void resume() {
      OptionalLong lastOffsets = checkpoint.latestOffsetsBatch();
      OptionalLong lastCommit = checkpoint.latestCommitBatch();
      checkConsistent(lastOffsets, lastCommit);
      committed = new ArrayList<>();
      sources.forEach(s -> committed.add(Optional.empty()));
      if (lastOffsets.isEmpty()) {
        nextBatch = 0;
        return;
      }
      long n = lastOffsets.getAsLong();
      if (lastCommit.isPresent() && lastCommit.getAsLong() >= n) {
        OffsetEntry last = entry(n);
        committed = last.offsets();
        lastBatchWatermark = last.batchWatermarkMs();
        Optional<CommitEntry> done = checkpoint.commit(n);
        watermark = done.map(CommitEntry::nextBatchWatermarkMs).orElse(last.batchWatermarkMs());
        done.ifPresent(c -> plan.restoreOperatorWatermarks(c.operatorWatermarksMs()));
        nextBatch = n + 1;
        return;
      }
      if (n > 0) {
        committed = entry(n - 1).offsets();
        checkpoint.commit(n - 1).ifPresent(c -> plan.restoreOperatorWatermarks(c.operatorWatermarksMs()));
      }
      OffsetEntry pending = entry(n);
      watermark = pending.batchWatermarkMs();
      LOG.info("Query {}: re-running batch {} that was planned but not committed", describe(), n);
      execute(n, pending, new LinkedHashMap<>(), clock.millis());
      nextBatch = n + 1;
    }

    /**
     * The protocol writes {@code offsets/N} before {@code commits/N}, and {@code offsets/N+1} only after
     * {@code commits/N}; a checkpoint that breaks either was edited by hand, and resuming from it would re-plan
     * a committed batch (whose sink then skips it as written) or lose the end of the last one.
     */
    private void checkConsistent(OptionalLong lastOffsets, OptionalLong lastCommit) {
      if (lastCommit.isPresent() && (lastOffsets.isEmpty() || lastOffsets.getAsLong() < lastCommit.getAsLong())) {
        long c = lastCommit.getAsLong();
        throw CheckpointErrors.damaged(checkpoint.root(), "offsets/" + c, "commits/" + c + " exists",
            "Without the committed batch's source offsets the query can't tell where batch " + (c + 1) + " starts.");
      }
      if (lastOffsets.isPresent() && lastOffsets.getAsLong() > 0
          && lastCommit.orElse(-1) < lastOffsets.getAsLong() - 1) {
        long n = lastOffsets.getAsLong();
        throw CheckpointErrors.damaged(checkpoint.root(), "commits/" + (n - 1), "offsets/" + n + " exists (batch "
            + n + " was planned, which happens only after batch " + (n - 1) + " committed)",
            "The query can't tell whether batch " + (n - 1) + " finished.");
      }
    }

    private OffsetEntry entry(long batchId) {
      OffsetEntry e = checkpoint.offsets(batchId).orElseThrow(() -> CheckpointErrors.damaged(checkpoint.root(),
          "offsets/" + batchId, "batch " + (batchId + 1) + " was planned after it",
          "The query resumes from the end offsets of batch " + batchId + "."));
      if (e.offsets().size() != sources.size()) {
        throw new IllegalStateException("The checkpoint " + checkpoint.root() + " was written by a query with "
            + e.offsets().size() + " sources, but this query has " + sources.size() + ". Changing the sources of a"
            + " query needs a new checkpoint location.");
      }
      return e;
    }

    /** Plans and runs the next batch; false when no source had new data. */
    private boolean runOneBatch() {
      long triggerStart = clock.millis();
      long roundStart = System.nanoTime();
      status = new QueryStatus("Getting offsets from " + sources, false, true);
      Map<String, Long> durations = new LinkedHashMap<>();
      long t0 = System.nanoTime();
      List<Optional<SourceOffset>> ends = new ArrayList<>();
      boolean hasData = false;
      for (int i = 0; i < sources.size(); i++) {
        Optional<SourceOffset> end = sources.get(i).latestOffset(committed.get(i), once ? ReadLimit.ALL : limits.get(i));
        if (end.isPresent() && !end.equals(committed.get(i))) {
          hasData = true;
          ends.add(end);
        } else {
          ends.add(committed.get(i));
        }
      }
      durations.put("latestOffset", millisSince(t0));
      // A query that never ran a batch has no state, so no timeout or timer can be due.
      boolean timerDue = !hasData && nextBatch > 0 && plan.timerDue(clock.millis(), nextBatch);
      if (!hasData && !timerDue && !plan.needsNoDataBatch(lastBatchWatermark, watermark)) {
        if (sources.stream().anyMatch(Source::awaitingData)) {
          status = new QueryStatus("Waiting for data that is still arriving (e.g. files being written)", false, true);
        } else {
          markIdle(roundStart);
        }
        return false;
      }
      idleSince = -1;
      OffsetEntry entry = new OffsetEntry(watermark, clock.millis(), Map.of(), ends);
      long t1 = System.nanoTime();
      checkpoint.writeOffsets(nextBatch, entry);
      durations.put("walCommit", millisSince(t1));
      interceptor.at(BatchInterceptor.Step.AFTER_OFFSETS, nextBatch);
      execute(nextBatch, entry, durations, triggerStart);
      nextBatch++;
      return true;
    }

    /** Steps 3-5 for batch {@code batchId} whose offsets are already in the checkpoint. */
    private void execute(long batchId, OffsetEntry entry, Map<String, Long> durations, long triggerStart) {
      // The batch's columnar rows end with it: their arrays serve the next batch.
      try (BatchScope scope = BatchScope.open()) {
        executeBatch(batchId, entry, durations, triggerStart);
      }
    }

    private void executeBatch(long batchId, OffsetEntry entry, Map<String, Long> durations, long triggerStart) {
      lease.heartbeat();
      status = new QueryStatus("Processing new data", true, true);
      plan.prepareState(batchId);
      long t0 = System.nanoTime();
      long inputRows = 0;
      List<Batch> perSource = new ArrayList<>();
      List<QueryProgress.SourceProgress> sourceProgress = new ArrayList<>();
      Map<String, Long> sourceMetrics = new java.util.TreeMap<>();
      for (int i = 0; i < sources.size(); i++) {
        Optional<SourceOffset> start = committed.get(i);
        Optional<SourceOffset> end = entry.offsets().get(i);
        long n = 0;
        Batch part = new Batch(sources.get(i).schema(), List.of());
        if (end.isPresent() && !end.equals(start)) {
          part = sources.get(i).getBatch(start, end.get());
          n = part.size();
          inputRows += n;
        }
        perSource.add(part);
        Map<String, Long> counters = sources.get(i).metrics();
        Map<String, String> shown = new java.util.TreeMap<>();
        counters.forEach((k, v) -> {
          shown.put(k, Long.toString(v));
          sourceMetrics.merge("source." + k, v, Long::sum);
        });
        sourceProgress.add(new QueryProgress.SourceProgress(sources.get(i).description(),
            start.map(SourceOffset::json).orElse(null), end.map(SourceOffset::json).orElse(null),
            end.map(SourceOffset::json).orElse(null), n, 0, 0, shown));
      }
      durations.put("getBatch", millisSince(t0));
      long t1 = System.nanoTime();
      long batchWatermark = entry.batchWatermarkMs();
      List<LateRowsWriter.LateRow> lateRows = new ArrayList<>();
      Batch batch = plan.run(perSource, batchId, Instant.ofEpochMilli(entry.batchTimestampMs()),
          batchWatermark, (op, s, row, wm) -> lateRows.add(new LateRowsWriter.LateRow(op, s, row, wm)));
      durations.put("queryPlanning", 0L);
      if (stopRequested && !spec.trigger().isFinite()) {
        // Abandon before any commit: offsets/N is written, so the next start re-runs this batch.
        plan.abortState();
        return;
      }
      long nextWatermark = plan.nextWatermark(batchWatermark);
      plan.futureRows().ifPresent(f -> LOG.warn("Query {} batch {}: {} rows have an event time more than maxFutureSkew"
          + " ({}) after the batch time {}, up to {}; they did not move the watermark. Check the event-time column"
          + " (epoch milliseconds read as seconds?), or raise maxFutureSkew if such times are real", describe(),
          batchId, f.getKey(), spec.maxFutureSkew(), Instant.ofEpochMilli(entry.batchTimestampMs()), f.getValue()));
      if (late != null && !lateRows.isEmpty()) {
        late.write(batchId, lateRows);
      } else if (!lateRows.isEmpty()) {
        LOG.warn("Query {} batch {}: {} rows arrived later than the watermark {} and were dropped; configure"
            + " lateRowsTable to keep them", describe(), batchId, lateRows.size(), Instant.ofEpochMilli(batchWatermark));
      }
      interceptor.at(BatchInterceptor.Step.BEFORE_SINK, batchId);
      Map<String, Long> batchMetrics = new java.util.TreeMap<>(plan.batchMetrics());
      batchMetrics.putAll(sourceMetrics);
      StateCommit stateCommit = plan.startStateCommit();
      long written;
      try {
        written = sink.addBatch(batchId, batch, batchMetrics);
      } catch (RuntimeException | Error e) {
        stateCommit.awaitAfter(e);
        throw e;
      }
      List<QueryProgress.StateOperatorProgress> stateProgress = stateCommit.await();
      if (!stateProgress.isEmpty()) {
        Map<String, Long> stateRows = new LinkedHashMap<>();
        stateProgress.forEach(s -> stateRows.merge(s.operatorName(), s.numRowsTotal(), Long::sum));
        checkpoint.writeStateRows(stateRows);
      }
      durations.put("addBatch", millisSince(t1));
      interceptor.at(BatchInterceptor.Step.AFTER_SINK, batchId);
      long t2 = System.nanoTime();
      checkpoint.writeCommit(batchId, new CommitEntry(nextWatermark, plan.operatorWatermarks()));
      lastBatchWatermark = batchWatermark;
      watermark = nextWatermark;
      for (int i = 0; i < sources.size(); i++) {
        entry.offsets().get(i).ifPresent(sources.get(i)::commit);
      }
      committed = entry.offsets();
      if (batchId >= spec.minBatchesToRetain()) {
        // A full sweep once per retention span catches leftovers (e.g. after the retention was lowered);
        // otherwise only the batch that just fell out of it is deleted, without listing.
        if (batchId % spec.minBatchesToRetain() == 0) {
          checkpoint.purgeBefore(batchId - spec.minBatchesToRetain() + 1);
        } else {
          checkpoint.purgeBatch(batchId - spec.minBatchesToRetain());
        }
      }
      if (batchId + 1 >= spec.minBatchesToRetain()) {
        plan.purgeState(batchId + 2 - spec.minBatchesToRetain());
      }
      durations.put("commitOffsets", millisSince(t2));
      interceptor.at(BatchInterceptor.Step.AFTER_COMMIT, batchId);
      long total = Math.max(1, clock.millis() - triggerStart);
      durations.put("triggerExecution", total);
      report(batchId, inputRows, written, durations, sourceProgress, total, stateProgress,
          plan.eventTime(batchWatermark), batchMetrics);
    }

    private void report(long batchId, long inputRows, long written, Map<String, Long> durations,
        List<QueryProgress.SourceProgress> sourceProgress, long totalMs,
        List<QueryProgress.StateOperatorProgress> stateProgress, Map<String, String> eventTime,
        Map<String, Long> observed) {
      double processed = inputRows * 1000.0 / totalMs;
      // Input rate: rows that arrived since the previous batch started (Spark's definition).
      long now = clock.millis();
      long sincePrevious = Math.max(1, previousBatchStart < 0 ? totalMs : now - totalMs - previousBatchStart);
      previousBatchStart = now - totalMs;
      List<QueryProgress.SourceProgress> sp = new ArrayList<>();
      for (QueryProgress.SourceProgress s : sourceProgress) {
        sp.add(new QueryProgress.SourceProgress(s.description(), s.startOffset(), s.endOffset(), s.latestOffset(),
            s.numInputRows(), s.numInputRows() * 1000.0 / sincePrevious, s.numInputRows() * 1000.0 / totalMs,
            s.metrics()));
      }
      QueryProgress p = new QueryProgress(id.toString(), runId.toString(), spec.name(), clock.instant().toString(),
          batchId, totalMs, inputRows, inputRows * 1000.0 / sincePrevious, processed, durations, eventTime,
          stateProgress, sp,
          new QueryProgress.SinkProgress(sink.description(), Math.max(0, written), written == Sink.ALREADY_COMMITTED),
          observed);
      synchronized (monitor) {
        progress.addLast(p);
        while (progress.size() > PROGRESS_KEPT) {
          progress.removeFirst();
        }
        monitor.notifyAll();
      }
      LOG.debug("Query {} batch {}: {}", describe(), batchId, p.compactJson());
      for (StreamingQueryListener l : listeners) {
        l.onQueryProgress(MicroBatchExecution.this, p);
      }
    }

    /** No new data in a round that started at {@code roundStart}: everything available before it is done. */
    private void markIdle(long roundStart) {
      status = new QueryStatus("Waiting for data to arrive", false, false);
      synchronized (monitor) {
        idleSince = roundStart;
        monitor.notifyAll();
      }
      for (StreamingQueryListener l : listeners) {
        l.onQueryIdle(MicroBatchExecution.this);
      }
    }

    private void waitForNextTrigger(long startedMs, boolean ran) {
      long waitMs;
      if (spec.trigger() instanceof Trigger.ProcessingTime pt) {
        waitMs = pt.interval().toMillis() - (clock.millis() - startedMs);
      } else {
        waitMs = ran ? 0 : IDLE_POLL_MS;
      }
      if (waitMs <= 0) {
        return;
      }
      synchronized (monitor) {
        if (stopRequested) {
          return;
        }
        try {
          monitor.wait(waitMs);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          stopRequested = true;
        }
      }
    }
  }

  private static long millisSince(long nanoStart) {
    return (System.nanoTime() - nanoStart) / 1_000_000;
  }

  private String describe() {
    return spec.name() != null ? "'" + spec.name() + "' (id " + id + ")" : "id " + id;
  }

  @Override
  public UUID id() {
    return id;
  }

  @Override
  public UUID runId() {
    return runId;
  }

  @Override
  public String name() {
    return spec.name();
  }

  @Override
  public boolean isActive() {
    return terminated.getCount() > 0;
  }

  @Override
  public QueryStatus status() {
    return status;
  }

  @Override
  public Optional<QueryProgress> lastProgress() {
    synchronized (monitor) {
      return Optional.ofNullable(progress.peekLast());
    }
  }

  @Override
  public List<QueryProgress> recentProgress() {
    synchronized (monitor) {
      return List.copyOf(progress);
    }
  }

  @Override
  public void awaitTermination() {
    try {
      terminated.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for query " + describe(), e);
    }
    rethrow();
  }

  @Override
  public boolean awaitTermination(Duration timeout) {
    try {
      boolean done = terminated.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
      rethrow();
      return done;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for query " + describe(), e);
    }
  }

  private void rethrow() {
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public void processAllAvailable() {
    long asked = System.nanoTime();
    synchronized (monitor) {
      monitor.notifyAll();
      while (isActive() && idleSince <= asked) {
        try {
          monitor.wait(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("Interrupted while waiting for query " + describe(), e);
        }
      }
    }
    rethrow();
  }

  @Override
  public void stop() {
    stopRequested = true;
    synchronized (monitor) {
      monitor.notifyAll();
    }
    if (thread != null && Thread.currentThread() != thread) {
      try {
        terminated.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public Optional<StreamingQueryException> exception() {
    return Optional.ofNullable(failure);
  }

  @Override
  public String toString() {
    return "StreamingQuery(" + describe() + ")";
  }

  public Location checkpointLocation() {
    return spec.checkpoint();
  }

  /** For the manager: whether this run reads and writes the given checkpoint. */
  public boolean uses(Location checkpoint) {
    return Objects.equals(spec.checkpoint().toString(), checkpoint.toString());
  }
}
