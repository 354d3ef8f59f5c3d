package dev.sluice.orchestration.service;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The service in a child JVM, as {@code sluice serve} runs it, for {@link ServiceShutdownTest}: bronze
 * batches are slowed and announced on stdout, and a shutdown hook prints every run record once stopped.
 */
final class ServiceChild {
  private ServiceChild() {}

  public static void main(String[] args) throws InterruptedException {
    SluiceConfig config = ConfigLoader.load(Path.of(args[0]));
    BatchInterceptor.REGISTRY.put(ServiceFixture.BRONZE, (step, batchId) -> {
      if (step == BatchInterceptor.Step.AFTER_OFFSETS) {
        System.out.println("batch " + batchId);
        System.out.flush();
        try {
          Thread.sleep(400);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    SluiceService service = SluiceService.start(config, ServiceOptions.defaults().withStopTimeout(Duration.ofSeconds(20)))
        .stopOnShutdown();
    // a second hook: stop() again (it waits for the first) and report what the service recorded
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      service.stop();
      for (PipelineConfig p : config.pipelines()) {
        service.runs(p.name()).forEach(r -> System.out.println("record " + r.pipeline() + " " + r.outcome() + " "
            + r.batches()));
      }
      System.out.println("stopped");
      System.out.flush();
    }));
    System.out.println("started");
    System.out.flush();
    service.awaitStop();
  }
}
