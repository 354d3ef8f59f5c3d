package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.SchemaMismatchException;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files in layouts Sluice never writes but other engines do: 2-level lists, INT96, binary decimals, millis. */
class LegacyLayoutsReadTest {
  @TempDir Path dir;
  ObjectStore store;

  @BeforeEach
  void setUp() {
    store = new LocalObjectStore(dir);
  }

  private void write(String schema, Consumer<Group> fill) throws Exception {
    MessageType type = MessageTypeParser.parseMessageType(schema);
    try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new StoreOutputFile(store, "f.parquet"))
        .withType(type)
        .withConf(new PlainParquetConfiguration())
        .withCodecFactory(PageCodecs.INSTANCE)
        .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
        .build()) {
      Group group = new SimpleGroupFactory(type).newGroup();
      fill.accept(group);
      writer.write(group);
    }
  }

  private Row readOne(StructType schema) {
    List<Row> rows = ParquetDataReader.read(store, "f.parquet", -1, schema).toList();
    assertThat(rows).hasSize(1);
    return rows.get(0);
  }

  @Test
  void twoLevelListsOfPrimitivesAndStructsAndThriftTuples() throws Exception {
    write("""
        message m {
          optional group ints (LIST) { repeated int32 array; }
          optional group recs (LIST) { repeated group array { optional int32 val; } }
          optional group pairs (LIST) { repeated group element { required int32 a; required binary b (STRING); } }
          optional group tup (LIST) { repeated group tup_tuple { required int64 x; } }
          optional group hive (LIST) { repeated group bag { optional int32 array; } }
          optional group kv (MAP_KEY_VALUE) { repeated group map { required binary key (UTF8); optional int32 value; } }
        }""", g -> {
          g.addGroup("ints").append("array", 1).append("array", 2);
          Group recs = g.addGroup("recs");
          recs.addGroup("array").append("val", 7);
          recs.addGroup("array");
          g.addGroup("pairs").addGroup("element").append("a", 3).append("b", "x");
          g.addGroup("tup").addGroup("tup_tuple").append("x", 9L);
          Group hive = g.addGroup("hive");
          hive.addGroup("bag").append("array", 5);
          hive.addGroup("bag");
          g.addGroup("kv").addGroup("map").append("key", "k").append("value", 4);
        });
    StructType schema = StructType.empty()
        .add("ints", new ArrayType(PrimitiveType.INTEGER, true))
        .add("recs", new ArrayType(StructType.empty().add("val", PrimitiveType.INTEGER), true))
        .add("pairs", new ArrayType(StructType.empty().add("a", PrimitiveType.INTEGER).add("b", PrimitiveType.STRING), true))
        .add("tup", new ArrayType(StructType.empty().add("x", PrimitiveType.LONG), true))
        .add("hive", new ArrayType(PrimitiveType.INTEGER, true))
        .add("kv", new MapType(PrimitiveType.STRING, PrimitiveType.INTEGER, true));

    Row row = readOne(schema);

    assertThat(row).isEqualTo(Row.of(
        List.of(1, 2),
        List.of(Row.of(7), Row.of((Object) null)),
        List.of(Row.of(3, "x")),
        List.of(Row.of(9L)),
        java.util.Arrays.asList(5, null),
        Map.of("k", 4)));
  }

  @Test
  void int96AndMillisTimestampsAndDecimalsInEveryPhysicalType() throws Exception {
    Instant instant = Instant.parse("1965-03-04T05:06:07.123456Z");
    write("""
        message m {
          optional int96 t96;
          optional int64 tmillis (TIMESTAMP(MILLIS,true));
          optional int64 tnanos (TIMESTAMP(NANOS,true));
          optional int32 d32 (DECIMAL(9,2));
          optional int64 d64 (DECIMAL(18,4));
          optional binary dbin (DECIMAL(30,5));
          optional fixed_len_byte_array(4) dfix (DECIMAL(8,1));
          optional int32 widened;
          optional float fl;
        }""", g -> {
          g.append("t96", int96(instant));
          g.append("tmillis", instant.toEpochMilli());
          g.append("tnanos", instant.getEpochSecond() * 1_000_000_000L + instant.getNano() + 789);
          g.append("d32", -12345);
          g.append("d64", 98765432101L);
          g.append("dbin", Binary.fromConstantByteArray(new BigInteger("-123456789012345678901234").toByteArray()));
          g.append("dfix", Binary.fromConstantByteArray(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xF6}));
          g.append("widened", -5);
          g.append("fl", 0.5f);
        });
    StructType schema = StructType.empty()
        .add("t96", PrimitiveType.TIMESTAMP).add("tmillis", PrimitiveType.TIMESTAMP).add("tnanos", PrimitiveType.TIMESTAMP)
        .add("d32", DecimalType.of(9, 2)).add("d64", DecimalType.of(18, 4)).add("dbin", DecimalType.of(30, 5))
        .add("dfix", DecimalType.of(8, 1)).add("widened", PrimitiveType.LONG).add("fl", PrimitiveType.DOUBLE);

    Row row = readOne(schema);

    assertThat(row).isEqualTo(Row.of(
        instant,
        Instant.parse("1965-03-04T05:06:07.123Z"),
        instant,
        new BigDecimal("-123.45"),
        new BigDecimal("9876543.2101"),
        new BigDecimal("-1234567890123456789.01234"),
        new BigDecimal("-1.0"),
        -5L,
        0.5));
  }

  @Test
  void aTypeThatCannotBeConvertedIsRefusedNamingFileAndColumn() throws Exception {
    write("message m { optional group s { optional binary name (STRING); } }", g -> g.addGroup("s").append("name", "x"));
    StructType schema = StructType.empty().add("s", StructType.empty().add("name", PrimitiveType.LONG));

    assertThatThrownBy(() -> ParquetDataReader.read(store, "f.parquet", -1, schema))
        .isInstanceOf(SchemaMismatchException.class)
        .hasMessageContaining("Column 's.name' of " + store.uriOf("f.parquet"))
        .hasMessageContaining("cannot be read as long (no conversion between these types)");
  }

  private static Binary int96(Instant instant) {
    long epochDay = Math.floorDiv(instant.getEpochSecond(), 86_400L);
    long nanosOfDay = Math.floorMod(instant.getEpochSecond(), 86_400L) * 1_000_000_000L + instant.getNano();
    ByteBuffer buffer = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    buffer.putLong(nanosOfDay).putInt((int) (epochDay + 2_440_588L));
    return Binary.fromConstantByteArray(buffer.array());
  }
}
