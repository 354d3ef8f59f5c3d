package dev.sluice.orchestration.cli;

import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.service.RunLog;
import dev.sluice.orchestration.service.RunRecord;
import dev.sluice.orchestration.service.cluster.ClusterStore;
import dev.sluice.orchestration.service.cluster.ClusterStoreException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Where the CLI reads the service's runs: the cluster's run-history table when the config has a {@code service:}
 * section, else the last run per pipeline that {@code sluice serve} left beside each checkpoint. The caller closes it.
 */
final class RunHistories implements AutoCloseable {
  private final SluiceConfig config;
  private final ClusterStore store;

  private RunHistories(SluiceConfig config, ClusterStore store) {
    this.config = config;
    this.store = store;
  }

  /** @throws CliException when the cluster store is configured but cannot be used */
  static RunHistories open(SluiceConfig config) {
    try {
      return new RunHistories(config, config.service().map(ClusterStore::open).orElse(null));
    } catch (ClusterStoreException e) {
      throw CliException.failed(e.getMessage());
    }
  }

  boolean clustered() {
    return store != null;
  }

  /** The pipeline's latest run on any node. */
  Optional<RunRecord> last(SluiceSession session, PipelineConfig p) {
    return store == null ? RunLog.read(session, config, p) : store.runs().last(p.name());
  }

  /** The latest {@code limit} runs, newest first, of one pipeline or of all. */
  List<RunRecord> recent(SluiceSession session, Optional<String> pipeline, int limit) {
    if (store != null) {
      return store.runs().recent(pipeline, limit);
    }
    List<RunRecord> out = new ArrayList<>();
    for (PipelineConfig p : config.pipelines()) {
      if (pipeline.isEmpty() || pipeline.get().equals(p.name())) {
        RunLog.read(session, config, p).ifPresent(out::add);
      }
    }
    out.sort(Comparator.comparing(RunRecord::end).reversed());
    return out.subList(0, Math.min(limit, out.size()));
  }

  @Override
  public void close() {
    if (store != null) {
      store.close();
    }
  }
}
