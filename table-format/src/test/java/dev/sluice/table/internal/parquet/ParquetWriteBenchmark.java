package dev.sluice.table.internal.parquet;

import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * A by-hand measurement, not a test: {@link ParquetDataWriter} against a plain parquet-avro writer
 * (one reused record, no checks, no stats) on 2,000,000 order rows. Run with the test classpath:
 * {@code java -cp target/test-classes:target/classes:<deps> dev.sluice.table.internal.parquet.ParquetWriteBenchmark [rows] [rounds]}.
 */
public final class ParquetWriteBenchmark {
  private static final StructType ORDERS = StructType.empty()
      .add("id", PrimitiveType.STRING)
      .add("customer", PrimitiveType.STRING)
      .add("ts", PrimitiveType.TIMESTAMP)
      .add("amount", PrimitiveType.DOUBLE)
      .add("status", PrimitiveType.STRING)
      .add("updated_at", PrimitiveType.TIMESTAMP);
  private static final String[] STATUSES = {"NEW", "PAID", "SHIPPED", "CANCELLED"};
  private static final long BASE_MICROS = 1_700_000_000_000_000L;

  private ParquetWriteBenchmark() {}

  public static void main(String[] args) throws IOException {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path dir = Files.createTempDirectory("sluice-bench");
    ObjectStore store = new LocalObjectStore(dir);
    for (int round = 1; round <= rounds; round++) {
      for (ParquetWriteOptions.Codec codec : ParquetWriteOptions.Codec.values()) {
        double plain = plainAvro(store, "plain-" + round + codec, rows, codec);
        double sluice = sluice(store, "sluice-" + round + codec, rows, codec);
        System.out.printf(Locale.ROOT, "round %d %-6s plain parquet-avro %,10.0f rows/s | ParquetDataWriter %,10.0f rows/s | ratio %.2f%n",
            round, codec, plain, sluice, sluice / plain);
      }
    }
  }

  private static String id(int i) {
    return "order-" + i;
  }

  private static String customer(int i) {
    return "customer-" + (i % 10_000);
  }

  private static double plainAvro(ObjectStore store, String key, int rows, ParquetWriteOptions.Codec codec) throws IOException {
    Schema micros = LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG));
    Schema schema = SchemaBuilder.record("orders").fields()
        .optionalString("id").optionalString("customer")
        .name("ts").type().optional().type(micros)
        .optionalDouble("amount").optionalString("status")
        .name("updated_at").type().optional().type(micros)
        .endRecord();
    long start = System.nanoTime();
    try (ParquetWriter<GenericData.Record> writer = AvroParquetWriter.<GenericData.Record>builder(new StoreOutputFile(store, key))
        .withSchema(schema)
        .withDataModel(GenericData.get())
        .withConf(new PlainParquetConfiguration())
        .withCodecFactory(PageCodecs.INSTANCE)
        .withCompressionCodec(CompressionCodecName.valueOf(codec.name()))
        .build()) {
      GenericData.Record record = new GenericData.Record(schema);
      for (int i = 0; i < rows; i++) {
        record.put(0, id(i));
        record.put(1, customer(i));
        record.put(2, BASE_MICROS + i * 1_000L);
        record.put(3, i * 0.01);
        record.put(4, STATUSES[i & 3]);
        record.put(5, BASE_MICROS + i * 1_000L + 500);
        writer.write(record);
      }
    }
    return rows / ((System.nanoTime() - start) / 1e9);
  }

  private static double sluice(ObjectStore store, String key, int rows, ParquetWriteOptions.Codec codec) {
    Instant base = Instant.ofEpochSecond(0, BASE_MICROS * 1_000);
    long start = System.nanoTime();
    ParquetDataWriter writer = ParquetDataWriter.open(store, key, ORDERS, ParquetWriteOptions.defaults().withCodec(codec));
    for (int i = 0; i < rows; i++) {
      // The rows a caller would hand over: Java values as DataType documents them.
      Instant ts = base.plusNanos(i * 1_000_000L);
      writer.write(Row.of(id(i), customer(i), ts, i * 0.01, STATUSES[i & 3], ts.plusNanos(500_000)));
    }
    writer.close();
    return rows / ((System.nanoTime() - start) / 1e9);
  }
}
