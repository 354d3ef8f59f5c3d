package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A full outer stream-stream join crashed at each step of two random batches and restarted writes the same table. */
class StreamStreamJoinRecoveryTest extends StreamStreamJoinHarness {
  @ParameterizedTest
  @CsvSource({"AFTER_OFFSETS, 11", "BEFORE_SINK, 12", "AFTER_SINK, 13", "AFTER_COMMIT, 14"})
  void aCrashAtAnyStepOfABatchChangesNothing(BatchInterceptor.Step step, long seed) {
    Plan plan = generate(seed, 10);
    List<String> expected = oracle(plan, "full_outer");
    Random random = new Random(seed);
    List<Integer> crashAt = new ArrayList<>(List.of(1 + random.nextInt(4), 5 + random.nextInt(5)));
    String name = "c" + seed;
    AtomicBoolean armed = new AtomicBoolean();
    AtomicInteger crashes = new AtomicInteger();
    BatchInterceptor.REGISTRY.put(name, (s, batchId) -> {
      if (s == step && armed.getAndSet(false)) {
        crashes.incrementAndGet();
        throw new IllegalStateException("injected crash at " + s + " of batch " + batchId);
      }
    });
    List<String> out = run(plan, name, "full_outer", "crashed", b -> {
      if (crashAt.remove((Integer) b)) {
        armed.set(true);
      }
    });
    assertThat(crashes).hasValue(2);
    assertThat(out).isEqualTo(expected);
  }
}
