package dev.sluice.ingestion.internal.sink.kafka;

import dev.sluice.ingestion.internal.sink.SinkInterceptor;
import dev.sluice.ingestion.sink.Sink;
import dev.sluice.ingestion.sink.SinkContext;
import dev.sluice.ingestion.sink.SinkProvider;
import java.util.Set;
import java.util.UUID;

/** {@code writeStream().format("kafka")}: at-least-once by default, exactly-once with Kafka transactions as an option. */
public final class KafkaSinkProvider implements SinkProvider {
  @Override
  public Set<String> formats() {
    return Set.of("kafka");
  }

  @Override
  public Set<String> options() {
    return KafkaSinkOptions.OPTIONS;
  }

  @Override
  public Set<String> optionPrefixes() {
    return Set.of(KafkaSinkOptions.PREFIX);
  }

  @Override
  public PreparedSink prepare(String format, SinkContext context) {
    KafkaSinkOptions options = KafkaSinkOptions.parse(context);
    SinkInterceptor interceptor = SinkInterceptor.forQuery(context.queryName());
    String description = "KafkaSink[" + options.topic().orElse("<topic column>") + ", "
        + (options.exactlyOnce() ? "exactly_once" : "at_least_once") + "]";
    return new PreparedSink() {
      @Override
      public Sink open(UUID queryId) {
        return options.exactlyOnce() ? new TransactionalKafkaSink(options, queryId, interceptor, description)
            : new AtLeastOnceKafkaSink(options, interceptor, description);
      }

      @Override
      public String description() {
        return description;
      }
    };
  }
}
