package dev.sluice.bench;

import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
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
 * parquet-avro writer writing the same rows with the same codec in the same JVM. The ratio is the figure.
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
    sluice(dir.resolve("warm-table"), warm);

    long t0 = System.nanoTime();
    long plainBytes = plain(dir.resolve("plain.parquet"), data);
    double plainSeconds = (System.nanoTime() - t0) / 1e9;
    long t1 = System.nanoTime();
    long sluiceBytes = sluice(dir.resolve("table"), data);
    double sluiceSeconds = (System.nanoTime() - t1) / 1e9;

    Map<String, Object> out = Json.object();
    out.put("benchmark", "append_throughput");
    out.put("rows", rows);
    out.put("codec", "snappy");
    out.put("sluice_rows_per_s", Math.round(rows / sluiceSeconds));
    out.put("plain_parquet_avro_rows_per_s", Math.round(rows / plainSeconds));
    out.put("ratio", Math.round(plainSeconds / sluiceSeconds * 1000) / 1000.0);
    out.put("sluice_bytes", sluiceBytes);
    out.put("plain_bytes", plainBytes);
    return out;
  }

  private static long sluice(Path dir, List<Row> rows) {
    Table table = Table.forPath(new LocalObjectStore(dir), "");
    table.create(OrdersData.SCHEMA).commit();
    table.newAppend().rows(rows).targetFileSize(Long.MAX_VALUE).commit();
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
