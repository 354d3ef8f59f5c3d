package dev.sluice.bench;

import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;

/**
 * Append throughput: Sluice's {@code Table.newAppend()} (Parquet + stats + commit) next to a plain
 * parquet-avro writer writing the same rows with the same codec in the same JVM. The ratio is the figure
 * (above 1: Sluice is faster); {@code cpu_ratio} is the same on thread CPU time, steadier on a busy machine.
 */
final class AppendBench {
  private AppendBench() {}

  static Map<String, Object> run(Path dir, int rows) throws Exception {
    Files.createDirectories(dir);
    List<Row> data = new ArrayList<>(rows);
    Random random = new Random(42);
    for (int i = 0; i < rows; i++) {
      data.add(OrdersData.order(i, random, 0));
    }
    List<Row> warm = data.subList(0, Math.min(rows, 200_000));
    // Warm-up both paths so that neither pays for class loading and JIT alone.
    plain(dir.resolve("warm-plain.parquet"), warm);
    sluice(dir.resolve("warm-table"), warm, Long.MAX_VALUE);

    // Rounds alternate the two writers so that a busy machine slows both alike; medians are reported,
    // and thread CPU time next to wall time, since CPU time hardly depends on what else runs.
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[] plainWall = new double[ROUNDS];
    double[] plainCpu = new double[ROUNDS];
    double[] sluiceWall = new double[ROUNDS];
    double[] sluiceCpu = new double[ROUNDS];
    long plainBytes = 0;
    long sluiceBytes = 0;
    for (int r = 0; r < ROUNDS; r++) {
      long c0 = threads.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      plainBytes = plain(dir.resolve("plain-" + r + ".parquet"), data);
      plainWall[r] = (System.nanoTime() - t0) / 1e9;
      plainCpu[r] = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
      long c1 = threads.getCurrentThreadCpuTime();
      long t1 = System.nanoTime();
      sluiceBytes = sluice(dir.resolve("table-" + r), data, Long.MAX_VALUE);
      sluiceWall[r] = (System.nanoTime() - t1) / 1e9;
      sluiceCpu[r] = (threads.getCurrentThreadCpuTime() - c1) / 1e9;
    }
    double plainSeconds = median(plainWall);
    double sluiceSeconds = median(sluiceWall);

    Map<String, Object> out = Json.object();
    out.put("benchmark", "append_throughput");
    out.put("rows", rows);
    out.put("codec", "snappy");
    out.put("rounds", ROUNDS);
    out.put("sluice_rows_per_s", Math.round(rows / sluiceSeconds));
    out.put("plain_parquet_avro_rows_per_s", Math.round(rows / plainSeconds));
    out.put("ratio", ratio(plainSeconds, sluiceSeconds));
    out.put("sluice_cpu_rows_per_s", Math.round(rows / median(sluiceCpu)));
    out.put("plain_parquet_avro_cpu_rows_per_s", Math.round(rows / median(plainCpu)));
    out.put("cpu_ratio", ratio(median(plainCpu), median(sluiceCpu)));
    out.put("sluice_bytes", sluiceBytes);
    out.put("plain_bytes", plainBytes);
    // The same rows again with 16 MiB files: rollover cost and the number of files it gives.
    long t2 = System.nanoTime();
    out.put("files_at_16mib", files(dir.resolve("table-rolled"), data, 16L << 20));
    out.put("sluice_16mib_files_rows_per_s", Math.round(rows / ((System.nanoTime() - t2) / 1e9)));
    return out;
  }

  private static final int ROUNDS = 3;

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static double ratio(double plainSeconds, double sluiceSeconds) {
    return Math.round(plainSeconds / sluiceSeconds * 1000) / 1000.0;
  }

  private static int files(Path dir, List<Row> rows, long targetFileSize) {
    sluice(dir, rows, targetFileSize);
    return Table.forPath(new LocalObjectStore(dir), "").latestSnapshot().files().size();
  }

  private static long sluice(Path dir, List<Row> rows, long targetFileSize) {
    Table table = Table.forPath(new LocalObjectStore(dir), "");
    table.create(OrdersData.SCHEMA).commit();
    table.newAppend().rows(rows).targetFileSize(targetFileSize).commit();
    return table.latestSnapshot().files().stream().mapToLong(f -> f.size()).sum();
  }

  private static long plain(Path file, List<Row> rows) throws Exception {
    Schema ts = LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG));
    Schema schema = SchemaBuilder.record("orders").fields()
        .requiredString("id")
        .optionalString("customer")
        .name("event_time").type().unionOf().nullType().and().type(ts).endUnion().nullDefault()
        .optionalDouble("amount")
        .optionalString("status")
        .name("updated_at").type().unionOf().nullType().and().type(ts).endUnion().nullDefault()
        .endRecord();
    GenericData.Record record = new GenericData.Record(schema);
    try (ParquetWriter<GenericData.Record> writer = AvroParquetWriter.<GenericData.Record>builder(new LocalOutputFile(file))
        .withSchema(schema)
        .withConf(new PlainParquetConfiguration())
        .withDataModel(GenericData.get())
        .withCompressionCodec(CompressionCodecName.SNAPPY)
        .build()) {
      for (Row r : rows) {
        record.put(0, r.get(0));
        record.put(1, r.get(1));
        record.put(2, micros((Instant) r.get(2)));
        record.put(3, r.get(3));
        record.put(4, r.get(4));
        record.put(5, micros((Instant) r.get(5)));
        writer.write(record);
      }
    }
    return Files.size(file);
  }

  private static long micros(Instant t) {
    return t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
  }
}
