package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.storage.ForwardingObjectStore;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * Crashes a run at each step of the micro-batch protocol, restarts it, and checks that the output
 * table holds every input row exactly once.
 */
class ExactlyOnceTest {
  @TempDir Path dir;

  @AfterEach
  void clear() {
    BatchInterceptor.REGISTRY.clear();
  }

  private static StreamingQuery run(SluiceSession session, Path dir, String name) {
    return session.readStream().format("json").schema(Landing.SCHEMA).option("maxFilesPerTrigger", "2")
        .load(dir.resolve("landing").toString())
        .writeStream().queryName(name).trigger(Trigger.availableNow()).toTable(dir.resolve("out").toString());
  }

  @ParameterizedTest
  @EnumSource(BatchInterceptor.Step.class)
  void crashAtEachStepThenRestart(BatchInterceptor.Step crashAt) {
    Landing.write(dir.resolve("landing"), 0, 6, 10);
    AtomicBoolean crashed = new AtomicBoolean();
    BatchInterceptor.REGISTRY.put("q", (step, batchId) -> {
      if (step == crashAt && batchId == 1 && crashed.compareAndSet(false, true)) {
        throw new IllegalStateException("injected crash at " + step + " of batch " + batchId);
      }
    });
    try (SluiceSession session = SluiceSession.create()) {
      StreamingQuery first = run(session, dir, "q");
      assertThatThrownBy(first::awaitTermination).isInstanceOf(StreamingQueryException.class)
          .hasMessageContaining("injected crash at " + crashAt);
      StreamingQuery second = run(session, dir, "q");
      second.awaitTermination();
      assertThat(Landing.ids(session.table(dir.resolve("out").toString()))).containsExactlyElementsOf(Landing.range(0, 60));
    }
  }

  @Test
  void crashWhileWritingDataFilesThenRestart() {
    Landing.write(dir.resolve("landing"), 0, 6, 10);
    AtomicInteger dataFiles = new AtomicInteger();
    try (SluiceSession session = SluiceSession.builder()
        .wrapStores(store -> new FailingDataFileStore(store, () -> dataFiles.incrementAndGet() == 2)).build()) {
      StreamingQuery first = run(session, dir, "q");
      assertThatThrownBy(first::awaitTermination).isInstanceOf(StreamingQueryException.class)
          .hasMessageContaining("injected");
      StreamingQuery second = run(session, dir, "q");
      second.awaitTermination();
      assertThat(Landing.ids(session.table(dir.resolve("out").toString()))).containsExactlyElementsOf(Landing.range(0, 60));
    }
  }

  /** Fails the data file write chosen by {@code failNow} half-way through, as a crash mid-write would. */
  static final class FailingDataFileStore extends ForwardingObjectStore {
    private final java.util.function.BooleanSupplier failNow;

    FailingDataFileStore(ObjectStore delegate, java.util.function.BooleanSupplier failNow) {
      super(delegate);
      this.failNow = failNow;
    }

    @Override
    public OutputStream newOutputStream(String key) {
      OutputStream out = delegate.newOutputStream(key);
      if (!key.contains("/part-") || !failNow.getAsBoolean()) {
        return out;
      }
      return new FilterOutputStream(out) {
        private int written;

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          written += len;
          if (written > 100) {
            throw new IOException("injected failure in the middle of writing " + key);
          }
          out.write(b, off, len);
        }
      };
    }
  }
}
