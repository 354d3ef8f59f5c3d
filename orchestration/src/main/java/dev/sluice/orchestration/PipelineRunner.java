package dev.sluice.orchestration;

import dev.sluice.bronze.BronzePipeline;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.gold.GoldPipeline;
import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.StreamingQueryException;
import dev.sluice.ingestion.Trigger;
import dev.sluice.ingestion.internal.runner.BatchHistory;
import dev.sluice.silver.SilverPipeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Starts pipelines as streaming queries of the layer they belong to; runs backlogs to completion in dependency order. */
public final class PipelineRunner {
  private PipelineRunner() {}

  /** How one availableNow run of a pipeline went. */
  public record RunResult(String pipeline, boolean succeeded, List<QueryProgress> progress,
      Optional<StreamingQueryException> failure) {}

  /** Starts one pipeline's query with {@code trigger}. */
  public static StreamingQuery start(SluiceSession session, SluiceConfig config, PipelineConfig pipeline, Trigger trigger) {
    return switch (pipeline.layer()) {
      case BRONZE -> BronzePipeline.start(session, config, pipeline, trigger);
      case SILVER -> SilverPipeline.start(session, config, pipeline, trigger);
      case GOLD -> GoldPipeline.start(session, config, pipeline, trigger);
    };
  }

  /**
   * Runs exactly one pipeline's backlog with {@code availableNow} (not its upstreams) and waits for it. The result
   * holds every batch of the run ({@link BatchHistory}), not only the last 100 {@code recentProgress()} keeps.
   */
  public static RunResult runOne(SluiceSession session, SluiceConfig config, PipelineConfig p) {
    try (BatchHistory batches = BatchHistory.of(session, p.name())) {
      StreamingQuery q = start(session, config, p, Trigger.availableNow());
      q.awaitTermination();
      return new RunResult(p.name(), true, batches.of(q), Optional.empty());
    } catch (StreamingQueryException e) {
      return new RunResult(p.name(), false, List.of(), Optional.of(e));
    } catch (RuntimeException e) {
      return new RunResult(p.name(), false, List.of(), Optional.of(
          new StreamingQueryException("Pipeline " + p.name() + " could not start: " + e.getMessage(), null, e)));
    }
  }

  /**
   * Runs the named pipelines (all when empty) and their upstreams with {@code availableNow}, upstream
   * first; a pipeline whose upstream failed is not run (reported as failed).
   */
  public static List<RunResult> runAvailableNow(SluiceSession session, SluiceConfig config, List<String> names) {
    List<RunResult> out = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    for (PipelineConfig p : PipelineGraph.ordered(config, names)) {
      List<String> blockedBy = PipelineGraph.upstream(p).stream().filter(failed::contains).toList();
      if (!blockedBy.isEmpty()) {
        failed.add(p.name());
        out.add(new RunResult(p.name(), false, List.of(), Optional.of(new StreamingQueryException(
            "Pipeline " + p.name() + " was not run because its upstream " + blockedBy + " failed", null, null))));
        continue;
      }
      RunResult r = runOne(session, config, p);
      if (!r.succeeded()) {
        failed.add(p.name());
      }
      out.add(r);
    }
    return out;
  }
}
