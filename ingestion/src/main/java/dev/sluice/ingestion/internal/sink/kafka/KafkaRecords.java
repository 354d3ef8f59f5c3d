package dev.sluice.ingestion.internal.sink.kafka;

import dev.sluice.ingestion.internal.sink.SinkErrors;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Turns rows into Kafka records by Spark's column names: {@code value} (string or binary, required), {@code key}
 * (string or binary), {@code topic} (string; the {@code topic} option wins), {@code partition} (int) and
 * {@code headers} (array of struct {key string, value binary}). Other columns are ignored, as in Spark.
 */
final class KafkaRecords {
  private final Optional<String> topicOption;
  private final int value;
  private final int key;
  private final int topic;
  private final int partition;
  private final int headers;

  private KafkaRecords(Optional<String> topicOption, int value, int key, int topic, int partition, int headers) {
    this.topicOption = topicOption;
    this.value = value;
    this.key = key;
    this.topic = topic;
    this.partition = partition;
    this.headers = headers;
  }

  /**
   * Binds the column positions once per schema.
   *
   * @throws dev.sluice.ingestion.AnalysisException with Spark's message for a missing value or topic, or a column
   *     of the wrong type
   */
  static KafkaRecords bind(StructType schema, Optional<String> topicOption) {
    List<String> names = schema.fieldNames();
    int value = schema.indexOf("value");
    if (value < 0) {
      throw SinkErrors.kafkaNoValue(names);
    }
    requireBytes(schema, value, "value");
    int key = schema.indexOf("key");
    if (key >= 0) {
      requireBytes(schema, key, "key");
    }
    int topic = schema.indexOf("topic");
    if (topic < 0 && topicOption.isEmpty()) {
      throw SinkErrors.kafkaNoTopic(names);
    }
    if (topic >= 0) {
      require(schema, topic, "topic", "a string", t -> t == PrimitiveType.STRING);
    }
    int partition = schema.indexOf("partition");
    if (partition >= 0) {
      require(schema, partition, "partition", "an int", t -> t == PrimitiveType.INTEGER);
    }
    int headers = schema.indexOf("headers");
    if (headers >= 0) {
      require(schema, headers, "headers", "an array<struct<key:string,value:binary>>", KafkaRecords::isHeaders);
    }
    return new KafkaRecords(topicOption, value, key, topic, partition, headers);
  }

  private static boolean isHeaders(DataType t) {
    return t instanceof ArrayType a && a.elementType() instanceof StructType s && s.size() == 2
        && s.field(0).type() == PrimitiveType.STRING && (s.field(1).type() == PrimitiveType.BINARY
            || s.field(1).type() == PrimitiveType.STRING);
  }

  private static void requireBytes(StructType schema, int i, String name) {
    require(schema, i, name, "a string or binary", t -> t == PrimitiveType.STRING || t == PrimitiveType.BINARY);
  }

  private static void require(StructType schema, int i, String name, String expected,
      java.util.function.Predicate<DataType> ok) {
    DataType t = schema.field(i).type();
    if (!ok.test(t)) {
      throw SinkErrors.kafkaColumnType(name, expected, t.typeName());
    }
  }

  /** The record of {@code row}; null when the row has no topic (the caller reports it with the batch id). */
  ProducerRecord<byte[], byte[]> record(Row row) {
    String t = topic(row);
    if (t == null) {
      return null;
    }
    Integer p = partition >= 0 ? (Integer) row.get(partition) : null;
    byte[] k = key >= 0 ? bytes(row.get(key)) : null;
    return new ProducerRecord<>(t, p, null, k, bytes(row.get(value)), headers(row));
  }

  /** The topic a row goes to: the option, else its {@code topic} column (null if that is null). */
  String topic(Row row) {
    return topicOption.orElseGet(() -> (String) row.get(topic));
  }

  private List<Header> headers(Row row) {
    if (headers < 0 || row.get(headers) == null) {
      return null;
    }
    List<Header> out = new ArrayList<>();
    for (Object o : (List<?>) row.get(headers)) {
      Row h = (Row) o;
      out.add(new RecordHeader((String) h.get(0), bytes(h.get(1))));
    }
    return out;
  }

  private static byte[] bytes(Object v) {
    if (v == null) {
      return null;
    }
    return v instanceof byte[] b ? b : ((String) v).getBytes(StandardCharsets.UTF_8);
  }
}
