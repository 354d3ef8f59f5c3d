package dev.sluice.orchestration.service;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One {@code sluice serve} node of the cluster tests in its own JVM: {@code <config> [<slow pipeline> <ms>]}. The
 * named pipeline's batches are announced on stdout ({@code batch <pipeline> <id>}) and slowed, so that a test can
 * kill the node in the middle of a run.
 */
final class ClusterNode {
  private ClusterNode() {}

  public static void main(String[] args) {
    SluiceConfig config = ConfigLoader.load(Path.of(args[0]));
    if (args.length > 2) {
      String pipeline = args[1];
      long pause = Long.parseLong(args[2]);
      BatchInterceptor.REGISTRY.put(pipeline, (step, batchId) -> {
        if (step == BatchInterceptor.Step.AFTER_OFFSETS) {
          System.out.println("batch " + pipeline + " " + batchId);
          System.out.flush();
          try {
            Thread.sleep(pause);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      });
    }
    SluiceService service = SluiceService.start(config, ServiceOptions.defaults()
        .withStopTimeout(Duration.ofSeconds(10))).stopOnShutdown();
    System.out.println("started " + service.node());
    System.out.flush();
    service.awaitStop();
  }
}
