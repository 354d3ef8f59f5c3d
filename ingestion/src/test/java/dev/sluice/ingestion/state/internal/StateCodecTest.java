package dev.sluice.ingestion.state.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StateCodecTest {
  static final StructType INNER = StructType.empty().add("a", PrimitiveType.LONG).add("b", PrimitiveType.STRING);
  static final StructType ALL = StructType.empty()
      .add("s", PrimitiveType.STRING)
      .add("l", PrimitiveType.LONG)
      .add("i", PrimitiveType.INTEGER)
      .add("sh", PrimitiveType.SHORT)
      .add("by", PrimitiveType.BYTE)
      .add("d", PrimitiveType.DOUBLE)
      .add("f", PrimitiveType.FLOAT)
      .add("bo", PrimitiveType.BOOLEAN)
      .add("bin", PrimitiveType.BINARY)
      .add("date", PrimitiveType.DATE)
      .add("ts", PrimitiveType.TIMESTAMP)
      .add("dec", DecimalType.of(38, 10))
      .add("st", INNER)
      .add("arr", new ArrayType(PrimitiveType.LONG, true))
      .add("m", new MapType(PrimitiveType.STRING, INNER, true))
      .add("nested", new ArrayType(new MapType(PrimitiveType.INTEGER, new ArrayType(INNER, true), true), true));

  @Test
  void everyTypeRoundTripsToAnEqualRow() throws IOException {
    Map<String, Row> map = new LinkedHashMap<>();
    map.put("x", Row.of(1L, "one"));
    map.put("null-value", null);
    map.put("null-fields", Row.of(null, null));
    Map<Integer, List<Row>> deep = new LinkedHashMap<>();
    deep.put(-7, Arrays.asList(Row.of(Long.MIN_VALUE, "é€😀"), null));
    Row full = Row.of("héllo, wörld 😀", Long.MIN_VALUE, Integer.MIN_VALUE, Short.MIN_VALUE, Byte.MIN_VALUE,
        Double.NaN, -0.0f, true, new byte[] {0, -1, 127, -128}, LocalDate.of(-3, 2, 28),
        Instant.parse("1969-12-31T23:59:59.999999Z"), new BigDecimal("-12345678901234567890.0123456789"),
        Row.of(null, "inner"), Arrays.asList(1L, null, Long.MAX_VALUE), map, Arrays.asList(deep, null, Map.of()));
    Row maxima = Row.of("", Long.MAX_VALUE, Integer.MAX_VALUE, Short.MAX_VALUE, Byte.MAX_VALUE,
        Double.NEGATIVE_INFINITY, Float.MIN_VALUE, false, new byte[0], LocalDate.of(9999, 12, 31),
        Instant.ofEpochSecond(-62_135_596_800L, 1000), new BigDecimal("1E+3"), Row.of(0L, null), List.of(),
        Map.of(), List.of());
    Row allNull = Row.of(new Object[ALL.size()]);

    for (Row row : List.of(full, maxima, allNull)) {
      Row back = roundTrip(ALL, row);
      assertThat(back).isEqualTo(row);
      assertThat(back.hashCode()).isEqualTo(row.hashCode());
    }
  }

  @Test
  void stringsAreWrittenAsTheirLengthThenTheirUtf8BytesWhateverTheirCharacters() throws IOException {
    List<String> strings = new ArrayList<>(List.of("", "o-0000001234", "é", "abcé", "ab\u0100c", "x😀y",
        "\u007f", "\u0080"));
    for (int n : new int[] {126, 127, 128, 129, 300}) {
      strings.add("a".repeat(n));
      strings.add("a".repeat(n - 1) + "é");
    }
    for (String s : strings) {
      ByteWriter direct = new ByteWriter(4);
      direct.writeUtf8(s);
      ByteWriter viaBytes = new ByteWriter(4);
      viaBytes.writeLengthPrefixed(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      assertThat(direct.toByteArray()).as(s).isEqualTo(viaBytes.toByteArray());
      assertThat(new ByteReader(new ByteArrayInputStream(direct.toByteArray())).readUtf8()).isEqualTo(s);
    }
  }

  @Test
  void decimalKeepsItsScaleAndSmallNumbersStayShort() throws IOException {
    StructType t = StructType.empty().add("dec", DecimalType.of(10, 2)).add("n", PrimitiveType.LONG);
    Row back = roundTrip(t, Row.of(new BigDecimal("1.50"), 3L));
    assertThat(((BigDecimal) back.get(0)).scale()).isEqualTo(2);
    assertThat(back.get(0)).isEqualTo(new BigDecimal("1.50"));

    ByteWriter out = new ByteWriter(16);
    new StructCodec(StructType.empty().add("s", PrimitiveType.STRING).add("n", PrimitiveType.LONG), "key")
        .writeRow(out, Row.of("abc", 5L));
    assertThat(out.position()).as("bitmap + length + 3 chars + 1-byte varint").isEqualTo(6);
  }

  @Test
  void decimalsOfEverySizeRoundTripAndKeepTheStoredLayoutOfTheirUnscaledBytes() throws IOException {
    StructType t = StructType.empty().add("dec", DecimalType.of(38, 4));
    List<BigDecimal> values = new java.util.ArrayList<>();
    for (String v : List.of("0", "-1", "1", "127", "128", "-128", "-129", "32767", "-32768", "999999999999999999",
        "-999999999999999999", "9223372036854775807", "-9223372036854775808", "12345678901234567890123")) {
      values.add(new BigDecimal(v).movePointLeft(4));
      values.add(new BigDecimal(v));
    }
    for (BigDecimal d : values) {
      Row back = roundTrip(t, Row.of(d));
      assertThat(back.get(0)).as("%s", d).isEqualTo(d);

      ByteWriter out = new ByteWriter(16);
      new StructCodec(t, "value").writeRow(out, Row.of(d));
      byte[] unscaled = d.unscaledValue().toByteArray();
      byte[] written = out.toByteArray();
      // bitmap, zig-zag scale, length, then exactly BigInteger.toByteArray: files written before stay readable
      assertThat(java.util.Arrays.copyOfRange(written, written.length - unscaled.length, written.length))
          .as("%s", d).isEqualTo(unscaled);
      assertThat(written[written.length - unscaled.length - 1]).as("length of %s", d).isEqualTo((byte) unscaled.length);
    }
  }

  @Test
  void aValueOfTheWrongClassNamesTheColumn() {
    StructCodec codec = new StructCodec(ALL, "value");
    Object[] values = new Object[ALL.size()];
    values[12] = Row.of("not a long", "b");
    assertThatThrownBy(() -> codec.writeRow(new ByteWriter(16), Row.of(values)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("State value.st column 'a' has type long but holds a java.lang.String")
        .hasMessageContaining("use the Java mapping documented on dev.sluice.table.types.DataType");
  }

  @Test
  void aRowWithTheWrongNumberOfValuesIsRefused() {
    StructCodec codec = new StructCodec(INNER, "key");
    assertThatThrownBy(() -> codec.writeRow(new ByteWriter(16), Row.of(1L)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A state key row has 1 values but its schema [a, b] has 2 columns; "
            + "build state rows with the store's StateSchema");
  }

  @Test
  void timestampNtzIsRefusedWhenTheCodecIsBuilt() {
    StructType t = StructType.empty().add("when", PrimitiveType.TIMESTAMP_NTZ);
    assertThatThrownBy(() -> new StructCodec(t, "key"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("State column 'key.when' has type timestamp_ntz, which Sluice does not support; "
            + "use timestamp (java.time.Instant)");
  }

  @Test
  void filesRoundTripWithEveryCompressionAndDetectTruncation() throws IOException {
    StructCodec keys = new StructCodec(INNER, "key");
    StructCodec values = new StructCodec(ALL, "value");
    for (Compression c : Compression.values()) {
      StateFileFormat.Writer w = new StateFileFormat.Writer(StateFileFormat.DELTA, c, keys, values);
      for (long i = 0; i < 20_000; i++) {
        w.put(Row.of(i, "k" + i), Row.of(new Object[ALL.size()]));
      }
      w.remove(Row.of(3L, "k3"));
      byte[] file = w.finish().toByteArray();

      List<String> seen = new ArrayList<>();
      StateFileFormat.read(new ByteArrayInputStream(file), StateFileFormat.DELTA, keys, values,
          new StateFileFormat.Visitor() {
            @Override
            public void put(byte[] key, byte[] value) {
              seen.add("put " + decode(keys, key).get(1));
              assertThat(decode(values, value)).isEqualTo(Row.of(new Object[ALL.size()]));
            }

            @Override
            public void remove(byte[] key) {
              seen.add("remove " + decode(keys, key).get(1));
            }
          });
      assertThat(seen).hasSize(20_001).startsWith("put k0").endsWith("put k19999", "remove k3");

      byte[] truncated = Arrays.copyOf(file, file.length - 3);
      assertThatThrownBy(() -> StateFileFormat.read(new ByteArrayInputStream(truncated), StateFileFormat.DELTA, keys,
          values, ignoring()))
          .as(c.name()).isInstanceOf(IOException.class);
      assertThatThrownBy(() -> StateFileFormat.read(new ByteArrayInputStream(file), StateFileFormat.SNAPSHOT, keys,
          values, ignoring()))
          .isInstanceOf(IOException.class).hasMessage("its header says kind 'D' but 'S' was expected");
    }
  }

  static Row roundTrip(StructType type, Row row) throws IOException {
    StructCodec codec = new StructCodec(type, "value");
    ByteWriter out = new ByteWriter(16);
    codec.writeRow(out, row);
    ByteWriter again = new ByteWriter(16);
    codec.writeRow(again, row);
    assertThat(again.toByteArray()).as("deterministic").isEqualTo(out.toByteArray());
    ByteReader in = new ByteReader(new ByteArrayInputStream(out.toByteArray()));
    Row back = codec.readRow(in);
    assertThat(in.atEnd()).isTrue();
    return back;
  }

  private static StateFileFormat.Visitor ignoring() {
    return new StateFileFormat.Visitor() {
      @Override
      public void put(byte[] key, byte[] value) {}

      @Override
      public void remove(byte[] key) {}
    };
  }

  private static Row decode(StructCodec codec, byte[] bytes) {
    try {
      return codec.readRow(new ByteReader(new ByteArrayInputStream(bytes)));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
