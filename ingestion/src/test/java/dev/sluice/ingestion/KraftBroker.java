package dev.sluice.ingestion;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real single-node KRaft Kafka cluster in this JVM (the Kafka project's test kit), set up for transactions on
 * one broker; plus plain consumers that read a topic back from the beginning. Start one per test class.
 */
final class KraftBroker implements AutoCloseable {
  private final KafkaClusterTestKit cluster;

  private KraftBroker(KafkaClusterTestKit cluster) {
    this.cluster = cluster;
  }

  static KraftBroker start() throws Exception {
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
    return new KraftBroker(cluster);
  }

  String bootstrap() {
    return cluster.bootstrapServers();
  }

  void createTopic(String name, int partitions) throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap()))) {
      admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }
  }

  /** Every record a {@code read_committed} consumer sees in {@code topic}: committed transactions and plain sends. */
  List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic) {
    return read(topic, "read_committed");
  }

  /** Every record in {@code topic}, aborted transactions' included. */
  List<ConsumerRecord<byte[], byte[]>> readUncommitted(String topic) {
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

  Set<String> topics() throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap()))) {
      return admin.listTopics().names().get(30, TimeUnit.SECONDS);
    }
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
