package dev.sluice.bench;

import dev.sluice.table.data.Row;
import dev.sluice.table.internal.parquet.ParquetDataWriter;
import dev.sluice.table.internal.parquet.ParquetWriteOptions;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Conversions;
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
 * Sluice's Parquet data file writer ({@code ParquetDataWriter}: Parquet plus Delta statistics) against plain
 * parquet-avro writing the same bronze-shaped rows (the orders columns, a decimal amount, the lineage columns) to one
 * snappy file each, in the same warm JVM, rounds alternated. parquet-avro gets its records built beforehand, so only
 * its writing is timed. CPU is the process's (every thread: Sluice encodes on a second thread, and GC counts for
 * both), the steadier figure on a busy machine; {@code cpu_ratio} above 1 means Sluice needs less CPU per row.
 */
final class ParquetWriterBench {
  static final StructType SCHEMA = StructType.of(
      StructField.of("order_id", PrimitiveType.STRING), StructField.of("customer_id", PrimitiveType.STRING),
      StructField.of("event_time", PrimitiveType.TIMESTAMP), StructField.of("amount", DecimalType.of(10, 2)),
      StructField.of("status", PrimitiveType.STRING), StructField.of("updated_at", PrimitiveType.TIMESTAMP),
      StructField.of("_rescued_data", PrimitiveType.STRING), StructField.of("_ingested_at", PrimitiveType.TIMESTAMP),
      StructField.of("_source", PrimitiveType.STRING), StructField.of("_batch_id", PrimitiveType.LONG));
  private static final int ROUNDS = 5;

  private ParquetWriterBench() {}

  static Map<String, Object> run(Path dir, int rows) throws Exception {
    Files.createDirectories(dir);
    List<Row> data = rows(rows);
    Schema avro = avroSchema();
    List<GenericData.Record> records = new ArrayList<>(rows);
    for (Row r : data) {
      records.add(record(avro, r));
    }
    LocalObjectStore store = new LocalObjectStore(dir);
    for (int i = 0; i < 2; i++) { // warm-up of both writers
      plain(dir.resolve("warm-plain.parquet"), avro, records);
      sluice(store, "warm-sluice.parquet", data);
    }
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    double[][] cpu = new double[2][ROUNDS];
    double[][] wall = new double[2][ROUNDS];
    long[] bytes = new long[2];
    for (int r = 0; r < ROUNDS; r++) {
      for (int w = 0; w < 2; w++) {
        long c0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        bytes[w] = w == 0 ? plain(dir.resolve("plain-" + r + ".parquet"), avro, records)
            : sluice(store, "sluice-" + r + ".parquet", data);
        wall[w][r] = (System.nanoTime() - t0) / 1e9;
        cpu[w][r] = (os.getProcessCpuTime() - c0) / 1e9;
      }
    }
    Map<String, Object> out = Json.object();
    out.put("benchmark", "parquet_writer");
    out.put("rows", rows);
    out.put("rounds", ROUNDS);
    out.put("sluice_rows_per_s", Math.round(rows / median(wall[1])));
    out.put("plain_parquet_avro_rows_per_s", Math.round(rows / median(wall[0])));
    out.put("ratio", round(median(wall[0]) / median(wall[1])));
    out.put("sluice_cpu_s_per_million_rows", round(median(cpu[1]) * 1e6 / rows));
    out.put("plain_parquet_avro_cpu_s_per_million_rows", round(median(cpu[0]) * 1e6 / rows));
    out.put("cpu_ratio", round(median(cpu[0]) / median(cpu[1])));
    out.put("sluice_bytes", bytes[1]);
    out.put("plain_bytes", bytes[0]);
    return out;
  }

  /** Orders as bronze holds them: 10,000 customers, one source file and batch per 100,000 rows. */
  static List<Row> rows(int n) {
    Random random = new Random(42);
    String[] status = {"created", "paid", "shipped", "cancelled", "refunded"};
    Instant start = Instant.parse("2024-01-01T00:00:00Z");
    Instant ingestedAt = Instant.parse("2024-01-02T00:00:00.123Z");
    List<Row> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Instant eventTime = start.plusMillis(i * 50L + random.nextInt(1000));
      out.add(Row.of(OrdersData.id(i), String.format("c-%05d", random.nextInt(10_000)), eventTime,
          BigDecimal.valueOf(500 + random.nextInt(49_501), 2), status[random.nextInt(status.length)],
          eventTime.plusSeconds(random.nextInt(3)), null, ingestedAt,
          "file:///data/input/orders-" + String.format("%05d", i / 10_000) + ".jsonl", (long) (i / 100_000)));
    }
    return out;
  }

  private static long sluice(LocalObjectStore store, String key, List<Row> rows) {
    return ParquetDataWriter.write(store, key, SCHEMA, rows.iterator(), ParquetWriteOptions.defaults()).size();
  }

  private static Schema avroSchema() {
    Schema ts = LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG));
    Schema decimal = LogicalTypes.decimal(10, 2).addToSchema(Schema.createFixed("amount", null, null, 5));
    return SchemaBuilder.record("bronze").fields()
        .optionalString("order_id").optionalString("customer_id")
        .name("event_time").type().unionOf().nullType().and().type(ts).endUnion().nullDefault()
        .name("amount").type().unionOf().nullType().and().type(decimal).endUnion().nullDefault()
        .optionalString("status")
        .name("updated_at").type().unionOf().nullType().and().type(ts).endUnion().nullDefault()
        .optionalString("_rescued_data")
        .name("_ingested_at").type().unionOf().nullType().and().type(ts).endUnion().nullDefault()
        .optionalString("_source").optionalLong("_batch_id")
        .endRecord();
  }

  private static GenericData.Record record(Schema schema, Row r) {
    GenericData.Record record = new GenericData.Record(schema);
    Schema decimal = schema.getField("amount").schema().getTypes().get(1);
    Conversions.DecimalConversion conversion = new Conversions.DecimalConversion();
    for (int i = 0; i < r.size(); i++) {
      Object v = r.get(i);
      if (v instanceof Instant t) {
        v = t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
      } else if (v instanceof BigDecimal d) {
        v = conversion.toFixed(d.setScale(2, RoundingMode.UNNECESSARY), decimal, decimal.getLogicalType());
      }
      record.put(i, v);
    }
    return record;
  }

  private static long plain(Path file, Schema schema, List<GenericData.Record> records) throws Exception {
    Files.deleteIfExists(file);
    try (ParquetWriter<GenericData.Record> writer = AvroParquetWriter.<GenericData.Record>builder(new LocalOutputFile(file))
        .withSchema(schema)
        .withConf(new PlainParquetConfiguration())
        .withDataModel(GenericData.get())
        .withCompressionCodec(CompressionCodecName.SNAPPY)
        .build()) {
      for (GenericData.Record r : records) {
        writer.write(r);
      }
    }
    return Files.size(file);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static double round(double x) {
    return Math.round(x * 1000) / 1000.0;
  }
}
