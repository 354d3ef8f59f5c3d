package dev.sluice.ingestion.source.internal.kafka;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.ingestion.source.SourceOffset;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * A position per partition, written as Spark's Kafka offset JSON {@code {"topic":{"0":42,"1":7}}}: offset 42 of
 * partition 0 is the next record to read. In {@code startingOffsets}, -2 stands for earliest and -1 for latest.
 */
final class KafkaOffsets {
  static final long EARLIEST = -2;
  static final long LATEST = -1;
  static final Comparator<TopicPartition> ORDER =
      Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);
  private static final ObjectMapper JSON = new ObjectMapper();

  private KafkaOffsets() {}

  static TreeMap<TopicPartition, Long> sorted(Map<TopicPartition, Long> offsets) {
    TreeMap<TopicPartition, Long> out = new TreeMap<>(ORDER);
    out.putAll(offsets);
    return out;
  }

  static String json(Map<TopicPartition, Long> offsets) {
    ObjectNode root = JSON.createObjectNode();
    sorted(offsets).forEach((tp, offset) -> {
      ObjectNode topic = root.has(tp.topic()) ? (ObjectNode) root.get(tp.topic()) : root.putObject(tp.topic());
      topic.put(Integer.toString(tp.partition()), offset);
    });
    return root.toString();
  }

  static SourceOffset toSourceOffset(Map<TopicPartition, Long> offsets) {
    return new SourceOffset(json(offsets));
  }

  static TreeMap<TopicPartition, Long> parse(SourceOffset offset) {
    return parse(offset.json(), "the checkpoint's offset " + offset.json()
        + " was not written by a kafka source; start the query with a new checkpoint location");
  }

  /**
   * @param hint what is wrong and what to do, appended to the message
   * @throws IllegalArgumentException if {@code json} is not of the form {@code {"topic":{"0":42}}}
   */
  static TreeMap<TopicPartition, Long> parse(String json, String hint) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      root = null;
    }
    if (root == null || !root.isObject()) {
      throw bad(json, hint);
    }
    TreeMap<TopicPartition, Long> out = new TreeMap<>(ORDER);
    for (Iterator<Map.Entry<String, JsonNode>> topics = root.fields(); topics.hasNext(); ) {
      Map.Entry<String, JsonNode> topic = topics.next();
      if (!topic.getValue().isObject()) {
        throw bad(json, hint);
      }
      for (Iterator<Map.Entry<String, JsonNode>> parts = topic.getValue().fields(); parts.hasNext(); ) {
        Map.Entry<String, JsonNode> p = parts.next();
        if (!p.getValue().isIntegralNumber() || !p.getKey().matches("\\d+")) {
          throw bad(json, hint);
        }
        out.put(new TopicPartition(topic.getKey(), Integer.parseInt(p.getKey())), p.getValue().longValue());
      }
    }
    return out;
  }

  private static IllegalArgumentException bad(String json, String hint) {
    return new IllegalArgumentException("'" + json + "' is not Kafka offset JSON of the form"
        + " {\"topic\":{\"0\":42,\"1\":-2}}: " + hint);
  }
}
