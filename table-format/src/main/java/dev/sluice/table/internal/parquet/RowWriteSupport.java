package dev.sluice.table.internal.parquet;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes {@link Row}s straight to Parquet columns ({@link ParquetSchemas}' layout), with no intermediate
 * record. Each row is checked whole before its first value goes out, so a refused row leaves the file as
 * it was and the writer usable.
 *
 * <p>No key/value metadata is written: Spark and Kernel read the Parquet schema only.
 */
final class RowWriteSupport extends WriteSupport<Row> {
  private final MessageType parquetSchema;
  private final ValueWriters.StructWriter root;
  private RecordConsumer consumer;

  RowWriteSupport(StructType schema, MessageType parquetSchema) {
    this.parquetSchema = parquetSchema;
    this.root = ValueWriters.root(schema);
  }

  @Override
  public WriteContext init(Configuration configuration) {
    return new WriteContext(parquetSchema, Map.of());
  }

  @Override
  public WriteContext init(ParquetConfiguration configuration) {
    return new WriteContext(parquetSchema, Map.of());
  }

  @Override
  public void prepareForWrite(RecordConsumer recordConsumer) {
    this.consumer = recordConsumer;
  }

  /** Checks {@code row} against the schema without writing it. */
  void check(Row row) {
    root.checkRow(row);
  }

  /** The row {@link #write} takes: a checked row with its values made ready on the caller's thread. */
  Row prepare(Row checked) {
    return root.prepareRow(checked);
  }

  /** Writes a row from {@link #prepare}. */
  @Override
  public void write(Row prepared) {
    consumer.startMessage();
    root.writePreparedFields(consumer, prepared);
    consumer.endMessage();
  }
}
