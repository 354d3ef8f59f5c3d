package dev.sluice.orchestration.http;

import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.service.RunLog;
import dev.sluice.orchestration.service.RunRecord;
import dev.sluice.orchestration.service.SluiceService;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What the HTTP server reads from and asks of the running service. {@link #of(SluiceService)} is the one
 * node's view; a clustered service can answer {@link #runs} and {@link #lastRun} from its shared run-history
 * table instead, so that every node's API shows every node's runs.
 *
 * <p>Methods that name a pipeline throw {@link IllegalArgumentException} when the config has no such pipeline.
 */
public interface ServiceView {
  SluiceConfig config();

  /** The session whose queries run the pipelines; the server listens to its batches. */
  SluiceSession session();

  /** The pipeline's recorded runs, oldest first. */
  List<RunRecord> runs(String pipeline);

  Optional<RunRecord> lastRun(String pipeline);

  Optional<Instant> nextFire(String pipeline);

  boolean running(String pipeline);

  boolean paused(String pipeline);

  /** Late fires of the pipeline's triggers since the service started. */
  long misfires(String pipeline);

  /** Fires the pipeline now. @throws IllegalStateException when it cannot be fired (stopping) */
  void trigger(String pipeline);

  void pause(String pipeline);

  void resume(String pipeline);

  /** Whether the service takes fires. */
  boolean ready();

  /** Calls {@code listener} with each run recorded from now on. */
  void onRun(Consumer<RunRecord> listener);

  /**
   * The view of a service running in this JVM. Before a pipeline's first run in this process, its last run is the
   * one a previous service recorded beside its checkpoint ({@link RunLog}), as {@code sluice status} shows it.
   */
  static ServiceView of(SluiceService service) {
    return new ServiceView() {
      @Override
      public SluiceConfig config() {
        return service.config();
      }

      @Override
      public SluiceSession session() {
        return service.session();
      }

      @Override
      public List<RunRecord> runs(String pipeline) {
        return service.runs(pipeline);
      }

      @Override
      public Optional<RunRecord> lastRun(String pipeline) {
        return service.lastRun(pipeline).or(() -> service.config().pipeline(pipeline)
            .flatMap(p -> RunLog.read(service.session(), service.config(), p)));
      }

      @Override
      public Optional<Instant> nextFire(String pipeline) {
        return service.nextFire(pipeline);
      }

      @Override
      public boolean running(String pipeline) {
        return service.running(pipeline);
      }

      @Override
      public boolean paused(String pipeline) {
        return service.paused(pipeline);
      }

      @Override
      public long misfires(String pipeline) {
        return service.misfires(pipeline);
      }

      @Override
      public void trigger(String pipeline) {
        service.trigger(pipeline);
      }

      @Override
      public void pause(String pipeline) {
        service.pause(pipeline);
      }

      @Override
      public void resume(String pipeline) {
        service.resume(pipeline);
      }

      @Override
      public boolean ready() {
        return service.ready();
      }

      @Override
      public void onRun(Consumer<RunRecord> listener) {
        service.onRun(listener);
      }
    };
  }
}
