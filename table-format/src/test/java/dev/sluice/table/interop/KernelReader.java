package dev.sluice.table.interop;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * Reads a Delta table with Delta Kernel 4.0.0, the independent reference that interoperability
 * tests compare Sluice's reader and writer against.
 *
 * <p>Rows come back as {@code List<Object>} in the table's logical column order, with values in
 * Sluice's Java mapping (see {@link dev.sluice.table.types.DataType}) except that a struct is a
 * {@code List<Object>} of its fields. Because {@code byte[]} has identity equality, compare row
 * lists with AssertJ's {@code usingRecursiveComparison()} after {@link #sorted(List)}.
 *
 * <p>A table path is a local directory ({@code /tmp/t} or {@code file:/tmp/t}) or an
 * {@code s3a://bucket/prefix} URI used with {@link #s3aConf(String, String, String)}. Kernel's own
 * exceptions (e.g. {@code io.delta.kernel.exceptions.TableNotFoundException}) propagate unchanged,
 * so a test can assert that Kernel refuses a table; a column type without a Sluice mapping
 * ({@code timestamp_ntz}, {@code variant}) raises {@link IllegalArgumentException}.
 */
public final class KernelReader {

  private KernelReader() {}

  /** The rows of the latest snapshot, in file order. */
  public static List<List<Object>> readRows(String tablePath, Configuration hadoopConf) {
    Engine engine = DefaultEngine.create(hadoopConf);
    return readSnapshot(engine, tablePath, Table.forPath(engine, tablePath).getLatestSnapshot(engine));
  }

  /** The rows of the snapshot at {@code version} (time travel). */
  public static List<List<Object>> readRowsAt(String tablePath, Configuration hadoopConf, long version) {
    Engine engine = DefaultEngine.create(hadoopConf);
    Snapshot snapshot = Table.forPath(engine, tablePath).getSnapshotAsOfVersion(engine, version);
    return readSnapshot(engine, tablePath, snapshot);
  }

  /** The version of the latest snapshot. */
  public static long latestVersion(String tablePath, Configuration hadoopConf) {
    Engine engine = DefaultEngine.create(hadoopConf);
    return Table.forPath(engine, tablePath).getLatestSnapshot(engine).getVersion();
  }

  /** The latest snapshot's top-level column names, in schema order (partition columns included). */
  public static List<String> columnNames(String tablePath, Configuration hadoopConf) {
    Engine engine = DefaultEngine.create(hadoopConf);
    StructType schema = Table.forPath(engine, tablePath).getLatestSnapshot(engine).getSchema();
    return schema.fields().stream().map(StructField::getName).toList();
  }

  /** A copy of {@code rows} in a deterministic total order (see {@link RowOrder}), for comparing reads. */
  public static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(RowOrder.ROWS);
    return copy;
  }

  /** A Hadoop configuration for local tables. */
  public static Configuration localConf() {
    Configuration conf = new Configuration();
    // Hadoop otherwise writes under /tmp/hadoop-<user>; tests point java.io.tmpdir at target/tmp.
    conf.set("hadoop.tmp.dir", System.getProperty("java.io.tmpdir"));
    return conf;
  }

  /**
   * A Hadoop configuration for {@code s3a://} tables on an S3-compatible endpoint such as S3Proxy.
   * S3A never creates buckets: create the bucket first. Hadoop caches one S3A file system per
   * bucket and JVM, so a test that restarts its server on another port must call {@code
   * FileSystem.closeAll()} (or use another bucket name).
   */
  public static Configuration s3aConf(String endpoint, String accessKey, String secretKey) {
    Configuration conf = localConf();
    conf.set("fs.s3a.endpoint", endpoint);
    conf.set("fs.s3a.endpoint.region", "us-east-1");
    conf.set("fs.s3a.path.style.access", "true");
    conf.set("fs.s3a.connection.ssl.enabled", "false");
    conf.set("fs.s3a.access.key", accessKey);
    conf.set("fs.s3a.secret.key", secretKey);
    conf.set("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    return conf;
  }

  private static List<List<Object>> readSnapshot(Engine engine, String tablePath, Snapshot snapshot) {
    Scan scan = snapshot.getScanBuilder().build();
    Row scanState = scan.getScanState(engine);
    StructType physicalSchema = ScanStateRow.getPhysicalDataReadSchema(engine, scanState);
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterator<FilteredColumnarBatch> scanFiles = scan.getScanFiles(engine)) {
      while (scanFiles.hasNext()) {
        try (CloseableIterator<Row> scanFileRows = scanFiles.next().getRows()) {
          while (scanFileRows.hasNext()) {
            readScanFile(engine, scanState, physicalSchema, scanFileRows.next(), rows);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Delta Kernel could not read table " + tablePath + " at version " + snapshot.getVersion()
              + ": " + e.getMessage() + ". Check that the table's files exist and are readable.", e);
    }
    return rows;
  }

  private static void readScanFile(
      Engine engine, Row scanState, StructType physicalSchema, Row scanFile, List<List<Object>> out)
      throws IOException {
    FileStatus file = InternalScanFileUtils.getAddFileStatus(scanFile);
    CloseableIterator<ColumnarBatch> physical = engine.getParquetHandler()
        .readParquetFiles(Utils.singletonCloseableIterator(file), physicalSchema, Optional.empty());
    try (CloseableIterator<FilteredColumnarBatch> logical =
        Scan.transformPhysicalData(engine, scanState, scanFile, physical)) {
      while (logical.hasNext()) {
        addSelectedRows(logical.next(), out);
      }
    }
  }

  // The selection vector drops rows that a deletion vector marks as deleted.
  private static void addSelectedRows(FilteredColumnarBatch batch, List<List<Object>> out) {
    ColumnarBatch data = batch.getData();
    Optional<ColumnVector> selection = batch.getSelectionVector();
    int columns = data.getSchema().length();
    for (int rowId = 0; rowId < data.getSize(); rowId++) {
      if (selection.isPresent() && !isSelected(selection.get(), rowId)) {
        continue;
      }
      List<Object> row = new ArrayList<>(columns);
      for (int column = 0; column < columns; column++) {
        row.add(KernelValues.value(data.getColumnVector(column), rowId));
      }
      out.add(row);
    }
  }

  private static boolean isSelected(ColumnVector selection, int rowId) {
    return !selection.isNullAt(rowId) && selection.getBoolean(rowId);
  }
}
