package dev.sluice.ingestion.source.internal.kafka;

import dev.sluice.ingestion.Location;
import dev.sluice.table.exceptions.ObjectAlreadyExistsException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;

/**
 * The offsets a new query starts from, in {@code sources/<i>/initial-offsets} of its checkpoint. Written once
 * (put-if-absent), like Spark's {@code sources/0/0}: {@code latest} or a timestamp resolves to different offsets
 * at each call, and a first batch re-run after a crash must read the records it planned.
 */
final class InitialOffsets {
  private static final String NAME = "initial-offsets";

  private InitialOffsets() {}

  static Map<TopicPartition, Long> readOrFix(Location folder, Supplier<Map<TopicPartition, Long>> resolve) {
    String key = folder.resolve(NAME).key();
    if (folder.store().status(key).isEmpty()) {
      try {
        folder.store().create(key, KafkaOffsets.json(resolve.get()).getBytes(StandardCharsets.UTF_8));
      } catch (ObjectAlreadyExistsException e) {
        // another attempt fixed them first: keep those
      }
    }
    return KafkaOffsets.parse(new String(folder.store().read(key), StandardCharsets.UTF_8),
        "the file " + folder.resolve(NAME) + " is damaged; start the query with a new checkpoint location");
  }
}
