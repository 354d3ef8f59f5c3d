package dev.sluice.orchestration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.SluiceSession;
import dev.sluice.table.storage.S3ObjectStore;
import dev.sluice.table.testing.FaultyHttpClient;
import dev.sluice.table.testing.S3ProxyServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole runs of the orders example on S3Proxy while 5 % of the HTTP requests misbehave (500, 503, read timeouts, a
 * response lost after the server did the write, slow ones), below the SDK's retries: every run either finishes or
 * the next one resumes, and at the end every layer equals the oracle with balanced ledgers. {@code -Pchaos} runs
 * more rounds ({@code sluice.chaos.faultRounds}).
 */
class ChaosStorageFaultsIT {
  static final int ROUNDS = Integer.getInteger("sluice.chaos.faultRounds", 1);
  static final double RATE = 0.05;
  @TempDir Path dir;

  @Test
  void runsUnderStorageFaultsLoseAndDuplicateNothing() {
    List<FaultyHttpClient> clients = new ArrayList<>();
    long seed = Long.getLong("sluice.chaos.seed", 16L);
    int runs = 0;
    int failedRuns = 0;
    List<String> errors = new ArrayList<>();
    try (S3ProxyServer s3 = S3ProxyServer.start()) {
      OrdersScenario s = new OrdersScenario(dir, "s3://" + s3.bucket() + "/warehouse", Map.of());
      SluiceSession faulty = s3Session(s3).wrapStores(store -> {
        if (!(store instanceof S3ObjectStore real)) {
          return store;
        }
        S3ObjectStore wrapped = new S3ObjectStore(real.options(), http -> {
          FaultyHttpClient f = new FaultyHttpClient(http, seed + clients.size(), RATE);
          clients.add(f);
          return f;
        });
        real.close();
        return wrapped;
      }).build();
      try (faulty) {
        for (int round = 0; round < ROUNDS; round++) {
          s.land(3, 100);
          boolean done = false;
          for (int attempt = 0; attempt < 20 && !done; attempt++) {
            List<PipelineRunner.RunResult> results = s.run(faulty);
            runs++;
            done = results.stream().allMatch(PipelineRunner.RunResult::succeeded);
            if (!done) {
              failedRuns++;
              results.stream().filter(r -> !r.succeeded()).forEach(r -> errors.add(r.pipeline() + ": "
                  + r.failure().map(Throwable::getMessage).orElse("?")));
            }
          }
          assertThat(done).as("round %d finished within 20 runs; errors: %s", round, errors).isTrue();
        }
      }
      Map<FaultyHttpClient.Fault, Long> injected = new EnumMap<>(FaultyHttpClient.Fault.class);
      long requests = 0;
      for (FaultyHttpClient f : clients) {
        requests += f.requests();
        f.injected().forEach((k, v) -> injected.merge(k, v, Long::sum));
      }
      try (SluiceSession clean = s3Session(s3).build()) {
        s.check(clean);
      }
      long faults = injected.values().stream().mapToLong(Long::longValue).sum();
      System.out.printf("chaos storage faults: %d rounds, %d runs (%d failed), %d HTTP requests, %d faults %s,"
          + " %d valid + %d broken lines checked; run errors: %s%n", ROUNDS, runs, failedRuns, requests, faults, injected,
          s.oracle().validLines.size(), s.oracle().brokenLines.size(), errors);
      assertThat(faults).as("faults were injected").isPositive();
    }
  }

  static SluiceSession.Builder s3Session(S3ProxyServer s3) {
    return SluiceSession.builder()
        .storageOption("endpoint", s3.endpoint().toString())
        .storageOption("region", "us-east-1")
        .storageOption("access-key-id", s3.accessKey())
        .storageOption("secret-access-key", s3.secretKey());
  }
}
