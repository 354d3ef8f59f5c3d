package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import dev.sluice.table.testing.S3ProxyServer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The micro-batch runner with landing files, checkpoint and table all on S3 (S3Proxy in-process). */
class RunnerOnS3IT {
  static S3ProxyServer s3;

  @BeforeAll
  static void start() {
    s3 = S3ProxyServer.start();
  }

  @AfterAll
  static void stop() {
    s3.close();
  }

  @AfterEach
  void clear() {
    BatchInterceptor.REGISTRY.clear();
  }

  private SluiceSession session() {
    return SluiceSession.builder()
        .storageOption("endpoint", s3.endpoint().toString())
        .storageOption("region", "us-east-1")
        .storageOption("access-key-id", s3.accessKey())
        .storageOption("secret-access-key", s3.secretKey())
        .build();
  }

  private static void land(SluiceSession session, String prefix, int files, int perFile) {
    for (int f = 0; f < files; f++) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < perFile; i++) {
        long id = (long) f * perFile + i;
        sb.append("{\"id\":").append(id).append(",\"status\":\"open\",\"amount\":").append(id).append("}\n");
      }
      Location file = session.location(prefix + String.format("/orders-%05d.jsonl", f));
      file.store().create(file.key(), sb.toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  @ParameterizedTest
  @EnumSource(value = BatchInterceptor.Step.class, names = {"AFTER_OFFSETS", "AFTER_SINK"})
  void exactlyOnceOnS3AfterACrash(BatchInterceptor.Step crashAt) {
    String root = "s3://" + s3.bucket() + "/" + crashAt.name().toLowerCase();
    AtomicBoolean crashed = new AtomicBoolean();
    BatchInterceptor.REGISTRY.put("s3q", (step, batchId) -> {
      if (step == crashAt && batchId == 1 && crashed.compareAndSet(false, true)) {
        throw new IllegalStateException("injected crash at " + step);
      }
    });
    try (SluiceSession session = session()) {
      land(session, root + "/landing", 6, 10);
      java.util.function.Supplier<StreamingQuery> run = () -> session.readStream().format("json").schema(Landing.SCHEMA)
          .option("maxFilesPerTrigger", "2").load(root + "/landing")
          .writeStream().queryName("s3q").trigger(Trigger.availableNow()).toTable(root + "/bronze");
      assertThatThrownBy(() -> run.get().awaitTermination()).hasMessageContaining("injected crash");
      run.get().awaitTermination();
      assertThat(Landing.ids(session.table(root + "/bronze"))).containsExactlyElementsOf(Landing.range(0, 60));
      assertThat(session.location(root + "/bronze/_checkpoints/s3q/commits/2").store()
          .status(session.location(root + "/bronze/_checkpoints/s3q/commits/2").key())).isPresent();
    }
  }
}
