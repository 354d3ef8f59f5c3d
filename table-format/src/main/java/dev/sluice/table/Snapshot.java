package dev.sluice.table;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.DecodedRows;
import dev.sluice.table.data.Row;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** An immutable view of a table at one version: schema, properties, live files and application transactions. */
public final class Snapshot {
  private final TableContext context;
  private final SnapshotState state;

  Snapshot(TableContext context, SnapshotState state) {
    this.context = context;
    this.state = state;
  }

  public long version() {
    return state.version();
  }

  /** The commit time of this version. */
  public Instant timestamp() {
    return Instant.ofEpochMilli(state.timestamp());
  }

  public StructType schema() {
    return state.schema();
  }

  public List<String> partitionColumns() {
    return state.metadata().partitionColumns();
  }

  /** Table properties ({@code metaData.configuration}), e.g. {@code delta.enableChangeDataFeed}. */
  public Map<String, String> properties() {
    return state.metadata().configuration();
  }

  /** The table's unique id ({@code metaData.id}). */
  public String tableId() {
    return state.metadata().id();
  }

  public int minReaderVersion() {
    return state.protocol().minReaderVersion();
  }

  public int minWriterVersion() {
    return state.protocol().minWriterVersion();
  }

  /** The latest {@code txn} version committed for {@code appId}, or empty. */
  public OptionalLong transactionVersion(String appId) {
    return state.transactionVersion(appId);
  }

  /** The live data files. */
  public List<DataFile> files() {
    List<DataFile> out = new ArrayList<>();
    for (AddFile add : state.activeFiles().values()) {
      out.add(context.dataFile(add));
    }
    return out;
  }

  /**
   * The rows of a data file of this table read with this snapshot's schema and partition columns,
   * whether or not the file is live in this snapshot (e.g. a file a later commit added, as a stream
   * reads it); columns the file lacks are null; rows its deletion vector deletes are left out. The caller closes
   * the iterator.
   */
  public CloseableIterator<Row> rowsOf(DataFile file) {
    return rowsOf(file, state.schema());
  }

  /** {@link #rowsOf(DataFile)} with only the columns of {@code columns} (some of this snapshot's schema's fields). */
  public CloseableIterator<Row> rowsOf(DataFile file, StructType columns) {
    return context.readRows(state, addOf(file), columns);
  }

  /**
   * The rows of {@code file} (one of this snapshot's table's) as runs decoded column by column, without a row or
   * value object made, those its deletion vector deletes left out (as {@link #rowsOf} does); empty when the file
   * can't be read so (partition columns, a column type {@link DecodedRows#supports} leaves out, or one stored in
   * another form): read {@link #rowsOf} then.
   */
  public java.util.Optional<CloseableIterator<DecodedRows>> decodedRowsOf(DataFile file) {
    return decodedRowsOf(file, state.schema());
  }

  /**
   * {@link #decodedRowsOf(DataFile)} with only the columns of {@code columns} (some of this snapshot's schema's
   * fields): the other columns' pages are not decoded.
   */
  public java.util.Optional<CloseableIterator<DecodedRows>> decodedRowsOf(DataFile file, StructType columns) {
    return context.readDecoded(state, addOf(file), columns);
  }

  private static AddFile addOf(DataFile file) {
    return new AddFile(file.logPath(), file.partitionValues(), file.size(), file.modificationTime(), true,
        file.statsJson(), null, file.deletionVectorJson());
  }

  /** Total rows, when every file has stats with {@code numRecords}. */
  public OptionalLong numRecords() {
    long total = 0;
    for (DataFile f : files()) {
      if (f.numRecords().isEmpty()) {
        return OptionalLong.empty();
      }
      total += f.numRecords().getAsLong();
    }
    return OptionalLong.of(total);
  }

  /** Starts a scan of this snapshot. */
  public ScanBuilder scan() {
    return new ScanBuilder(context, state);
  }

  SnapshotState state() {
    return state;
  }

  @Override
  public String toString() {
    return "Snapshot(" + context.log().tablePath() + "@v" + version() + ")";
  }
}
