package dev.sluice.ingestion.internal.runner;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.internal.plan.EventTimeWatermark;
import dev.sluice.ingestion.internal.plan.LateRows;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.internal.plan.Transform;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.ingestion.state.StateStoreMetrics;
import dev.sluice.ingestion.state.StateStoreProvider;
import dev.sluice.ingestion.state.StateOperatorMetadata;
import dev.sluice.ingestion.state.StateStoreFactory;
import dev.sluice.ingestion.state.StateStoreSettings;
import dev.sluice.ingestion.state.StateStores;
import dev.sluice.ingestion.state.internal.StateMetadataFile;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A query's bound steps with what runs around them: the event-time watermark (the minimum, or with
 * {@code watermarkPolicy=max} the maximum, over the {@code withWatermark} steps) and one versioned
 * state store per stateful step, under {@code <checkpoint>/state/<step>/0}. Batch N loads state
 * version N and commits version N+1 while the sink writes the batch, both before {@code commits/N}, so a re-run
 * batch rebuilds the same version from the same input. Event times after the batch timestamp plus {@code maxFutureSkew} don't
 * move the watermark (see {@link EventTimeWatermark}). The providers come from the query's
 * {@link StateStoreSettings}; each operator's {@code state/<step>/_metadata} records the provider and schemas,
 * and a restart with another provider is refused before any state is read.
 */
final class ExecutionPlan implements AutoCloseable {
  private final List<Transform> steps;
  private final List<EventTimeWatermark> watermarks = new ArrayList<>();
  private final List<StatefulTransform> stateful = new ArrayList<>();
  private final Map<StatefulTransform, StateStoreProvider> providers = new IdentityHashMap<>();
  private final boolean maxPolicy;
  private final long maxFutureSkewMs;
  private Map<StatefulTransform, StateStore> open = new IdentityHashMap<>();
  private Map<String, Long> lastMetrics = Map.of();
  private final java.util.UUID queryId;
  private final StateStoreFactory factory;

  /**
   * @throws dev.sluice.ingestion.CheckpointIncompatibleException when the checkpoint's state was written by
   *     another provider than {@code settings} names
   */
  ExecutionPlan(List<Transform> steps, Location stateRoot, boolean maxPolicy, java.time.Duration maxFutureSkew,
      java.util.UUID queryId, StateStoreSettings settings, String checkpoint) {
    this.queryId = queryId;
    this.steps = steps;
    this.maxPolicy = maxPolicy;
    this.maxFutureSkewMs = maxFutureSkew.toMillis();
    for (Transform t : flatten(steps)) {
      if (t instanceof EventTimeWatermark w) {
        watermarks.add(w);
      }
      if (t instanceof StatefulTransform s) {
        Location operator = stateRoot.resolve(Integer.toString(stateful.size()));
        StateMetadataFile.checkAndWrite(operator, new StateOperatorMetadata(stateful.size(), s.operatorName(),
            settings.type(), 1, s.stateSchema()), checkpoint);
        stateful.add(s);
      }
    }
    this.factory = StateStores.factory(settings);
    for (int i = 0; i < stateful.size(); i++) {
      StatefulTransform s = stateful.get(i);
      Location partition = stateRoot.resolve(i + "/0");
      providers.put(s, s.timeIndex().map(index -> factory.create(partition, s.stateSchema(), index))
          .orElseGet(() -> factory.create(partition, s.stateSchema())));
    }
  }

  /** The steps with those nested in multi-input steps (each join or union input's own steps), depth first. */
  private static List<Transform> flatten(List<Transform> steps) {
    List<Transform> out = new ArrayList<>();
    for (Transform t : steps) {
      out.add(t);
      if (t instanceof dev.sluice.ingestion.internal.plan.MultiInputTransform m) {
        out.addAll(m.nested());
      }
    }
    return out;
  }

  boolean hasWatermark() {
    return !watermarks.isEmpty();
  }

  /** Lets the state stores start reading the state batch {@code batchId} runs on, while its sources are read. */
  void prepareState(long batchId) {
    for (StatefulTransform s : stateful) {
      providers.get(s).prepare(batchId + 1);
    }
  }

  /** Runs the steps over one batch with the given watermark; the state stores stay open until {@link #commitState}. */
  Batch run(Batch input, long batchId, Instant timestamp, long watermarkMs, LateRows late) {
    return run(List.of(input), batchId, timestamp, watermarkMs, late);
  }

  /**
   * Like {@link #run(Batch, long, Instant, long, LateRows)} with one batch per source: a plan that starts with a
   * multi-input step (join, union) gets them apart, any other plan their union.
   */
  Batch run(List<Batch> perSource, long batchId, Instant timestamp, long watermarkMs, LateRows late) {
    open = new IdentityHashMap<>();
    for (StatefulTransform s : stateful) {
      open.put(s, providers.get(s).load(batchId + 1));
    }
    long limit = timestamp.toEpochMilli() > Long.MAX_VALUE - maxFutureSkewMs ? Long.MAX_VALUE
        : timestamp.toEpochMilli() + maxFutureSkewMs;
    watermarks.forEach(w -> w.startBatch(limit));
    Transform.BatchInfo info = new Transform.BatchInfo(batchId, timestamp, watermarkMs, open::get, late,
        new java.util.concurrent.ConcurrentHashMap<>(), queryId);
    lastMetrics = info.metrics();
    try {
      Batch batch;
      int first = 0;
      if (!steps.isEmpty() && steps.get(0) instanceof dev.sluice.ingestion.internal.plan.MultiInputTransform m) {
        batch = m.applyInputs(perSource, info);
        first = 1;
      } else if (perSource.size() == 1) {
        batch = perSource.get(0);
      } else {
        // Built through the spilling builder: the union of the parts is no more held in the heap than one part.
        Batch.Builder all = Batch.builder(perSource.get(0).schema());
        perSource.forEach(b -> all.addAll(b.rows()));
        batch = all.build();
      }
      for (Transform t : steps.subList(first, steps.size())) {
        batch = t.apply(batch, info);
      }
      return batch;
    } catch (RuntimeException e) {
      abortState();
      throw e;
    }
  }

  /**
   * Starts committing every store as version batchId+1 (see {@link StateCommit}: the sink writes meanwhile);
   * {@link StateCommit#await} returns the {@code stateOperators} progress entries.
   */
  StateCommit startStateCommit() {
    Map<StatefulTransform, StateStore> stores = open;
    open = new IdentityHashMap<>();
    if (stateful.isEmpty()) {
      return StateCommit.none();
    }
    return StateCommit.start(() -> {
      List<QueryProgress.StateOperatorProgress> out = new ArrayList<>();
      for (StatefulTransform s : stateful) {
        StateStore store = stores.get(s);
        store.commit();
        StateStoreMetrics m = store.metrics();
        out.add(new QueryProgress.StateOperatorProgress(s.operatorName(), s.numRowsTotal(m), m.numRowsUpdated(),
            m.numRowsRemoved(), s.lastDroppedByWatermark(), m.memoryUsedBytes(), m.commitTimeMs(),
            m.customMetrics()));
      }
      return out;
    });
  }

  void abortState() {
    for (StateStore store : open.values()) {
      try {
        store.abort();
      } catch (RuntimeException ignored) {
        // the batch failed anyway; a re-run reloads the previous version
      }
    }
    open = new IdentityHashMap<>();
  }

  /** The watermark for the next batch, given the one in force now. */
  long nextWatermark(long current) {
    if (watermarks.isEmpty()) {
      return current;
    }
    long next = maxPolicy ? Long.MIN_VALUE : Long.MAX_VALUE;
    for (EventTimeWatermark w : watermarks) {
      long v = w.advance(current);
      next = maxPolicy ? Math.max(next, v) : Math.min(next, v);
    }
    return Math.max(current, next);
  }

  /** Each {@code withWatermark} step's own watermark, for the commit (only when there are several). */
  List<Long> operatorWatermarks() {
    if (watermarks.size() < 2) {
      return List.of();
    }
    List<Long> out = new ArrayList<>();
    watermarks.forEach(w -> out.add(w.operatorWatermark()));
    return out;
  }

  /** Resumes the steps' own watermarks from a commit written by the same plan (ignored when the count differs). */
  void restoreOperatorWatermarks(List<Long> values) {
    if (values.size() == watermarks.size()) {
      for (int i = 0; i < values.size(); i++) {
        watermarks.get(i).restoreOperatorWatermark(values.get(i));
      }
    }
  }

  /** Rows of the last batch whose event time was too far ahead to move the watermark, and the greatest such time. */
  Optional<Map.Entry<Long, Instant>> futureRows() {
    long rows = 0;
    long max = Long.MIN_VALUE;
    for (EventTimeWatermark w : watermarks) {
      rows += w.futureRows();
      max = Math.max(max, w.futureMax());
    }
    return rows == 0 ? Optional.empty() : Optional.of(Map.entry(rows, Instant.ofEpochMilli(max)));
  }

  /** Whether a batch without input must run because the watermark moved (windows to emit, state to evict). */
  boolean needsNoDataBatch(long previousMs, long currentMs) {
    if (currentMs <= previousMs) {
      return false;
    }
    for (StatefulTransform s : stateful) {
      if (s.needsNoDataBatch(previousMs, currentMs)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a processing-time timeout or timer of a stateful step is due at {@code processingTimeMs}, before batch
   * {@code nextBatchId} (whose state a step may read to learn its due times; it is aborted after).
   */
  boolean timerDue(long processingTimeMs, long nextBatchId) {
    for (StatefulTransform s : stateful) {
      StateStore[] opened = new StateStore[1];
      try {
        if (s.timerDue(processingTimeMs, () -> opened[0] = providers.get(s).load(nextBatchId + 1))) {
          return true;
        }
      } finally {
        if (opened[0] != null) {
          opened[0].abort();
        }
      }
    }
    return false;
  }

  /**
   * The last batch's counters: steps' own ({@link Transform.BatchInfo#count}) and the version of each
   * static Delta table it joined with, as {@code staticVersion.<name>}.
   */
  Map<String, Long> batchMetrics() {
    Map<String, Long> out = new java.util.TreeMap<>(lastMetrics);
    for (Transform t : steps) {
      if (t instanceof dev.sluice.ingestion.internal.plan.join.StaticJoin j && j.lastStaticVersion().isPresent()) {
        out.put("staticVersion." + j.staticName(), j.lastStaticVersion().getAsLong());
      }
    }
    return out;
  }

  /** The {@code eventTime} entry of progress. */
  Map<String, String> eventTime(long watermarkMs) {
    Map<String, String> out = new LinkedHashMap<>();
    for (EventTimeWatermark w : watermarks) {
      out.putAll(w.batchStats());
    }
    if (!watermarks.isEmpty()) {
      out.put("watermark", Instant.ofEpochMilli(watermarkMs).toString());
    }
    return out;
  }

  /** Deletes state files not needed to rebuild versions from {@code minVersion} on. */
  void purgeState(long minVersion) {
    for (StateStoreProvider p : providers.values()) {
      p.purge(minVersion);
    }
  }

  @Override
  public void close() {
    try {
      providers.values().forEach(StateStoreProvider::close);
    } finally {
      factory.close();
    }
  }
}
