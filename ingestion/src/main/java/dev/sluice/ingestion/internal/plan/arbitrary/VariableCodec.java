package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.ingestion.internal.plan.arbitrary.TwsLayout.Item;
import dev.sluice.ingestion.stateful.Encoder;
import dev.sluice.ingestion.state.internal.RowBytes;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of one state variable as item bytes: written with the current value schema, read with the schema
 * they were written with and then evolved to the current one.
 */
final class VariableCodec<T> {
  private final String name;
  private final Encoder<T> encoder;
  private final List<StructType> history;
  private final int current;
  private final RowBytes writer;
  private final Map<Integer, RowBytes> readers = new HashMap<>();

  /**
   * @param history the value schemas recorded in the checkpoint, oldest first, the current one last
   */
  VariableCodec(String name, Encoder<T> encoder, List<StructType> history) {
    this.name = name;
    this.encoder = encoder;
    this.history = new ArrayList<>(history);
    this.current = history.size() - 1;
    this.writer = new RowBytes(encoder.schema(), "state variable '" + name + "'");
  }

  Item item(T value, byte[] key, Long expiresAtMs) {
    if (value == null) {
      throw new IllegalArgumentException("State variable '" + name + "' can't hold null; clear or remove the value"
          + " instead");
    }
    return new Item(current, key, writer.encode(encoder.toRow(value)), expiresAtMs);
  }

  T decode(Item item) {
    int id = item.schema();
    if (id < 0 || id > current) {
      throw new IllegalStateException("State variable '" + name + "' holds a value of schema " + id + ", which its"
          + " checkpoint does not record (it records " + (current + 1) + "); the state is damaged");
    }
    Row row = readers.computeIfAbsent(id, i -> new RowBytes(history.get(i), "state variable '" + name + "'"))
        .decode(item.data());
    if (id != current) {
      row = SchemaEvolution.project(row, history.get(id), history.get(current));
    }
    return encoder.fromRow(row);
  }
}
