package dev.sluice.ingestion.state.internal;

import dev.sluice.table.data.Row;

/** The encoded size of an entry already in the map, for the memory estimate when it is replaced or removed. */
final class EntrySizer {
  private final StructCodec keys;
  private final StructCodec values;
  private final ByteWriter scratch = new ByteWriter(256);

  EntrySizer(StructCodec keys, StructCodec values) {
    this.keys = keys;
    this.values = values;
  }

  int size(Row key, Row value) {
    scratch.reset();
    keys.writeRow(scratch, key);
    values.writeRow(scratch, value);
    return scratch.position();
  }
}
