package dev.sluice.table.internal.write;

import dev.sluice.table.data.Row;
import dev.sluice.table.internal.actions.AddCdcFile;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Clock;
import java.util.List;

/**
 * Writes change data feed files ({@code _change_data/…/cdc-*.parquet}): the table's columns plus
 * {@code _change_type} (insert, update_preimage, update_postimage, delete).
 */
public final class ChangeDataWriter {
  public static final String CHANGE_TYPE = "_change_type";
  /** The table's folder of change data files. */
  public static final String FOLDER = "_change_data";
  public static final String INSERT = "insert";
  public static final String DELETE = "delete";
  public static final String UPDATE_PREIMAGE = "update_preimage";
  public static final String UPDATE_POSTIMAGE = "update_postimage";

  private final TableWriter writer;
  private final int width;
  private long rows;

  public ChangeDataWriter(ObjectStore store, String tablePath, StructType tableSchema, List<String> partitionColumns,
      WriteOptions options, Clock clock) {
    this.writer = new TableWriter(store, tablePath, FOLDER, withChangeType(tableSchema), partitionColumns,
        options, clock);
    this.width = tableSchema.size();
  }

  /** The table schema with {@code _change_type} appended. */
  public static StructType withChangeType(StructType schema) {
    return schema.add(CHANGE_TYPE, PrimitiveType.STRING);
  }

  /** Records one changed row (of the table schema). */
  public void write(Row tableRow, String changeType) {
    Object[] out = new Object[width + 1];
    for (int i = 0; i < width; i++) {
      out[i] = tableRow.get(i);
    }
    out[width] = changeType;
    writer.write(Row.of(out));
    rows++;
  }

  public long rows() {
    return rows;
  }

  /** Closes the files and adds their {@code cdc} actions to the transaction. */
  public void finish(OptimisticTransaction txn) {
    for (NewFile f : finishFiles()) {
      txn.addCdc(new AddCdcFile(f.add().path(), f.add().partitionValues(), f.add().size(), null), f.key());
    }
  }

  /** Closes the files and returns them (for a {@code cdc} action each). */
  public List<NewFile> finishFiles() {
    return writer.finish();
  }

  public void abort() {
    writer.abort();
  }
}
