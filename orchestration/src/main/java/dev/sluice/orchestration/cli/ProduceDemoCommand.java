package dev.sluice.orchestration.cli;

import dev.sluice.orchestration.demo.ClicksGenerator;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code sluice produce-demo}: writes demo click events for {@code examples/clickstream} to a Kafka topic, creating
 * the topic if it is missing. No in-process broker: the one Sluice's tests use is test code.
 */
@Command(name = "produce-demo", header = "Write demo click events to a Kafka topic.",
    description = "Write N demo click events (JSON: event_id, user_id, page, event_time; about 5 % duplicates, "
        + "2 % not JSON, 2 % without user_id) to TOPIC, for examples/clickstream/pipelines.yaml.")
final class ProduceDemoCommand implements Callable<Integer> {
  @ParentCommand
  SluiceCli root;

  @Option(names = "--bootstrap-servers", required = true, paramLabel = "HOST:PORT[,…]", description = "The Kafka brokers.")
  String bootstrapServers;

  @Option(names = "--topic", paramLabel = "TOPIC", description = "Topic (default ${DEFAULT-VALUE}; created if missing).")
  String topic = "clicks";

  @Option(names = "--partitions", paramLabel = "N", description = "Partitions of a topic it creates (default ${DEFAULT-VALUE}).")
  int partitions = 3;

  @Option(names = {"-n", "--events"}, paramLabel = "N", description = "Records to write (default ${DEFAULT-VALUE}).")
  long events = 2_000;

  @Option(names = "--users", paramLabel = "N", description = "Distinct users (default ${DEFAULT-VALUE}).")
  int users = 50;

  @Option(names = "--rate", paramLabel = "N/s", description = "Records per second (default: as fast as possible).")
  String rate;

  @Option(names = "--seed", paramLabel = "N", description = "Random seed: the same seed writes the same events (default ${DEFAULT-VALUE}).")
  long seed = 14;

  @Override
  public Integer call() throws Exception {
    double perSecond = perSecond();
    if (events < 0 || users < 1 || partitions < 1) {
      throw CliException.usage("--events must be >= 0, --users and --partitions >= 1");
    }
    Terminal t = root.terminal();
    createTopicIfMissing();
    ClicksGenerator generator = new ClicksGenerator(seed, users, Instant.now());
    Map<String, Object> props = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 5);
    long started = System.nanoTime();
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
      for (long i = 0; i < events; i++) {
        if (perSecond > 0) {
          long due = started + (long) (i * 1e9 / perSecond);
          long wait = due - System.nanoTime();
          if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
          }
        }
        ClicksGenerator.Click c = generator.next();
        producer.send(new ProducerRecord<>(topic, c.key(), c.value()));
      }
      producer.flush();
    }
    t.info(String.format("wrote %,d records to %s at %s in %.1f s", events, topic, bootstrapServers,
        (System.nanoTime() - started) / 1e9));
    return ExitCodes.OK;
  }

  private double perSecond() {
    if (rate == null) {
      return 0;
    }
    String n = rate.endsWith("/s") ? rate.substring(0, rate.length() - 2) : rate;
    try {
      double v = Double.parseDouble(n.strip());
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // falls through to the usage error
    }
    throw CliException.usage("--rate '" + rate + "' is not a rate: give records per second, e.g. --rate 100/s");
  }

  private void createTopicIfMissing() throws InterruptedException {
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000))) {
      Set<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS);
      if (!topics.contains(topic)) {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) -1))).all().get(30, TimeUnit.SECONDS);
      }
    } catch (ExecutionException | TimeoutException e) {
      throw CliException.failed("cannot reach Kafka at " + bootstrapServers + " to create topic " + topic + ": "
          + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage())
          + "; check --bootstrap-servers and that the broker is up");
    }
  }
}
