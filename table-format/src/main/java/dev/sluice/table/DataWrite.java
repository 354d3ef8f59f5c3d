package dev.sluice.table;

import dev.sluice.table.data.Row;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import dev.sluice.table.internal.write.NewFile;
import dev.sluice.table.internal.write.ParallelFileWrite;
import dev.sluice.table.internal.write.SchemaEnforcer;
import dev.sluice.table.internal.write.TableWriter;
import dev.sluice.table.internal.write.WriteOptions;
import dev.sluice.table.types.StructType;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

/** Writes input rows as new data files of a transaction, enforcing (or evolving) the table schema. */
final class DataWrite {
  private DataWrite() {}

  /** Files written and rows counted; the files are already added to {@code txn}. */
  record Result(List<NewFile> files, long rows, long bytes) {}

  static Result write(TableContext context, OptimisticTransaction txn, SnapshotState snapshot, StructType inputSchema,
      Iterator<Row> rows, boolean mergeSchema, WriteOptions options) {
    return write(context, txn, snapshot, inputSchema, rows, null, mergeSchema, options);
  }

  /**
   * Same for rows already in memory: a large list is written as several files at once ({@link ParallelFileWrite}).
   */
  static Result write(TableContext context, OptimisticTransaction txn, SnapshotState snapshot, StructType inputSchema,
      List<Row> rows, boolean mergeSchema, WriteOptions options) {
    return write(context, txn, snapshot, inputSchema, rows.iterator(), rows, mergeSchema, options);
  }

  private static Result write(TableContext context, OptimisticTransaction txn, SnapshotState snapshot,
      StructType inputSchema, Iterator<Row> rows, List<Row> inMemory, boolean mergeSchema, WriteOptions options) {
    Metadata metadata = snapshot.metadata();
    StructType tableSchema = snapshot.schema();
    SchemaEnforcer.Plan plan = SchemaEnforcer.plan(tableSchema, inputSchema == null ? tableSchema : inputSchema,
        mergeSchema, context.log().tablePath());
    if (plan.evolved()) {
      txn.updateMetadata(new Metadata(metadata.id(), metadata.name(), metadata.description(), metadata.formatProvider(),
          metadata.formatOptions(), plan.tableSchema().toJson(), metadata.partitionColumns(), metadata.configuration(),
          metadata.createdTime()));
    }
    WriteOptions fileOptions = options.forTable(metadata.configuration());
    IntFunction<TableWriter> newWriter = slice -> new TableWriter(context.log().store(), context.log().tablePath(), "",
        plan.tableSchema(), metadata.partitionColumns(), fileOptions, context.clock(),
        new AtomicInteger(slice * ParallelFileWrite.FILE_NUMBERS_PER_SLICE)::getAndIncrement, context.dictionaryHints());
    int[] index = plan.inputIndex();
    boolean identity = inputSchema == null || isIdentity(index, inputSchema.size());
    UnaryOperator<Row> convert = identity ? UnaryOperator.identity() : in -> reorder(in, index);
    int slices = inMemory == null ? 1 : ParallelFileWrite.slices(inMemory.size());
    List<NewFile> files;
    long count;
    if (slices > 1) {
      files = ParallelFileWrite.write(inMemory, slices, newWriter, convert);
      count = inMemory.size();
    } else {
      TableWriter writer = newWriter.apply(0);
      count = 0;
      try {
        while (rows.hasNext()) {
          writer.write(convert.apply(rows.next()));
          count++;
        }
        files = writer.finish();
      } catch (RuntimeException e) {
        writer.abort();
        throw e;
      }
    }
    long bytes = 0;
    for (NewFile f : files) {
      txn.add(f.add(), f.key());
      bytes += f.add().size();
    }
    return new Result(files, count, bytes);
  }

  private static boolean isIdentity(int[] index, int inputSize) {
    if (index.length != inputSize) {
      return false;
    }
    for (int i = 0; i < index.length; i++) {
      if (index[i] != i) {
        return false;
      }
    }
    return true;
  }

  private static Row reorder(Row in, int[] index) {
    Object[] out = new Object[index.length];
    for (int i = 0; i < index.length; i++) {
      out[i] = index[i] < 0 ? null : in.get(index[i]);
    }
    return Row.of(out);
  }
}
