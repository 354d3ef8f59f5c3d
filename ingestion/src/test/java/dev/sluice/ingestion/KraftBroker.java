package dev.sluice.ingestion;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real single-node KRaft Kafka cluster in this JVM (the Kafka project's test kit), set up for transactions on
 * one broker; plus plain consumers that read a topic back from the beginning, a producer and admin calls. A test
 * class gets one broker for all its tests with {@code @RegisterExtension static final KraftBroker broker =
 * KraftBroker.perClass();} (started before the first test, closed after the last); {@link #start()} is for a broker
 * whose life a test manages itself. Shared with other modules' tests through the ingestion test-jar.
 */
public final class KraftBroker implements AutoCloseable, BeforeAllCallback, AfterAllCallback {
  private KafkaClusterTestKit cluster;
  private int topics;

  private KraftBroker(KafkaClusterTestKit cluster) {
    this.cluster = cluster;
  }

  /** A JUnit 5 extension: register it in a static field to share one broker across the class's tests. */
  public static KraftBroker perClass() {
    return new KraftBroker(null);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    cluster = startCluster();
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    close();
  }

  /** A broker started now; the caller closes it. */
  public static KraftBroker start() throws Exception {
    return new KraftBroker(startCluster());
  }

  private static KafkaClusterTestKit startCluster() throws Exception {
    KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("offsets.topic.num.partitions", "1")
        .setConfigProp("transaction.state.log.replication.factor", "1")
        .setConfigProp("transaction.state.log.min.isr", "1")
        .setConfigProp("transaction.state.log.num.partitions", "1")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        .build();
    cluster.format();
    cluster.startup();
    cluster.waitForReadyBrokers();
    return cluster;
  }

  public String bootstrap() {
    return cluster.bootstrapServers();
  }

  public void createTopic(String name, int partitions) throws Exception {
    createTopic(name, partitions, Map.of());
  }

  /** Creates a topic named {@code prefix} and a number not used before on this broker, and returns the name. */
  public String newTopic(String prefix, int partitions) throws Exception {
    String name = prefix + (topics++);
    createTopic(name, partitions);
    return name;
  }

  /** Every record a {@code read_committed} consumer sees in {@code topic}: committed transactions and plain sends. */
  public List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic) {
    return read(topic, "read_committed");
  }

  /** Every record in {@code topic}, aborted transactions' included. */
  public List<ConsumerRecord<byte[], byte[]>> readUncommitted(String topic) {
    return read(topic, "read_uncommitted");
  }

  /** Assigns all partitions (no group), reads from the start to the end offsets (the LSO for read_committed). */
  private List<ConsumerRecord<byte[], byte[]>> read(String topic, String isolation) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
          .map(i -> new TopicPartition(topic, i.partition())).toList();
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
      long deadline = System.currentTimeMillis() + 30_000;
      while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException("Reading " + topic + " did not reach the end offsets " + end);
        }
        consumer.poll(Duration.ofMillis(200)).forEach(out::add);
      }
      return out;
    }
  }

  /** A topic with extra topic configs, e.g. {@code segment.bytes} and {@code retention.ms} for retention tests. */
  public void createTopic(String name, int partitions, Map<String, String> configs) throws Exception {
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs)))
          .all().get(30, TimeUnit.SECONDS);
    }
  }

  /** Raises the topic's partition count to {@code total}. */
  public void addPartitions(String topic, int total) throws Exception {
    try (Admin admin = admin()) {
      admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(total))).all().get(30, TimeUnit.SECONDS);
    }
  }

  /** Deletes the records of {@code partition} before {@code offset}, as retention would. */
  public void deleteRecordsBefore(String topic, int partition, long offset) throws Exception {
    try (Admin admin = admin()) {
      admin.deleteRecords(Map.of(new TopicPartition(topic, partition), RecordsToDelete.beforeOffset(offset)))
          .all().get(30, TimeUnit.SECONDS);
    }
  }

  /** Sends {@code values} as string records to {@code partition} (null: the default partitioner), keyed by {@code key}. */
  public void send(String topic, Integer partition, String key, List<String> values) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      for (String v : values) {
        producer.send(new ProducerRecord<>(topic, partition, key, v));
      }
      producer.flush();
    }
  }

  private Admin admin() {
    return Admin.create(Map.of("bootstrap.servers", bootstrap()));
  }

  public Set<String> topics() throws Exception {
    try (Admin admin = admin()) {
      return admin.listTopics().names().get(30, TimeUnit.SECONDS);
    }
  }

  @Override
  public void close() throws Exception {
    if (cluster != null) {
      cluster.close();
      cluster = null;
    }
  }
}
