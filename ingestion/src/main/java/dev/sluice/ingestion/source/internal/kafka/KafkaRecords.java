package dev.sluice.ingestion.source.internal.kafka;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/** The rows of the Kafka source, with Spark's columns: one row per record. */
final class KafkaRecords {
  static final StructType HEADER = StructType.empty()
      .add("key", PrimitiveType.STRING)
      .add("value", PrimitiveType.BINARY);
  static final StructType SCHEMA = StructType.empty()
      .add("key", PrimitiveType.BINARY)
      .add("value", PrimitiveType.BINARY)
      .add("topic", PrimitiveType.STRING)
      .add("partition", PrimitiveType.INTEGER)
      .add("offset", PrimitiveType.LONG)
      .add("timestamp", PrimitiveType.TIMESTAMP)
      .add("timestampType", PrimitiveType.INTEGER);
  static final StructType WITH_HEADERS = SCHEMA.add("headers", new ArrayType(HEADER, true));

  private KafkaRecords() {}

  static StructType schema(boolean includeHeaders) {
    return includeHeaders ? WITH_HEADERS : SCHEMA;
  }

  static Row row(ConsumerRecord<byte[], byte[]> r, boolean includeHeaders) {
    Object[] values = new Object[includeHeaders ? 8 : 7];
    values[0] = r.key();
    values[1] = r.value();
    values[2] = r.topic();
    values[3] = r.partition();
    values[4] = r.offset();
    values[5] = Instant.ofEpochMilli(r.timestamp());
    // Spark's codes: 0 = CreateTime, 1 = LogAppendTime (Kafka's TimestampType ids).
    values[6] = r.timestampType().id;
    if (includeHeaders) {
      List<Row> headers = new ArrayList<>();
      for (Header h : r.headers()) {
        headers.add(Row.of(h.key(), h.value()));
      }
      values[7] = headers;
    }
    return Row.of(values);
  }
}
