package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.exceptions.UnsupportedTableFeatureException;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class AvroSchemasTest {
  @Test
  void typesMapAsSparkWritesThemAndNullableFieldsAreUnionsWithNull() {
    StructType schema = StructType.empty()
        .add("ts", PrimitiveType.TIMESTAMP)
        .add("d", PrimitiveType.DATE)
        .add("b", PrimitiveType.BYTE)
        .add("dec", DecimalType.of(9, 2))
        .add(StructField.of("bin", PrimitiveType.BINARY, false))
        .add("arr", new ArrayType(PrimitiveType.STRING, false))
        .add("m", new MapType(PrimitiveType.STRING, PrimitiveType.LONG, true));

    Schema avro = AvroSchemas.toAvro(schema);

    assertThat(avro.getField("ts").schema().toString())
        .isEqualTo("[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}]");
    assertThat(avro.getField("d").schema().toString()).isEqualTo("[\"null\",{\"type\":\"int\",\"logicalType\":\"date\"}]");
    assertThat(avro.getField("b").schema().toString()).isEqualTo("[\"null\",\"int\"]");
    assertThat(avro.getField("dec").schema().getTypes().get(1).toString()).isEqualTo(
        "{\"type\":\"fixed\",\"name\":\"decimal_9_2\",\"size\":4,\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2}");
    assertThat(avro.getField("bin").schema().toString()).isEqualTo("\"bytes\"");
    assertThat(avro.getField("arr").schema().getTypes().get(1).toString()).isEqualTo("{\"type\":\"array\",\"items\":\"string\"}");
    assertThat(avro.getField("m").schema().getTypes().get(1).toString())
        .isEqualTo("{\"type\":\"map\",\"values\":[\"null\",\"long\"]}");
  }

  @Test
  void decimalWidthsAreSparksMinimalBytes() {
    assertThat(AvroSchemas.fixedLength(1)).isEqualTo(1);
    assertThat(AvroSchemas.fixedLength(9)).isEqualTo(4);
    assertThat(AvroSchemas.fixedLength(10)).isEqualTo(5);
    assertThat(AvroSchemas.fixedLength(18)).isEqualTo(8);
    assertThat(AvroSchemas.fixedLength(25)).isEqualTo(11);
    assertThat(AvroSchemas.fixedLength(38)).isEqualTo(16);
  }

  @Test
  void columnNamesThatAreNotAvroNamesAreSanitisedAndKeptUnique() {
    StructType schema = StructType.empty().add("a-b", PrimitiveType.LONG).add("a_b", PrimitiveType.LONG)
        .add("1col", PrimitiveType.LONG).add("ü", PrimitiveType.LONG);

    Schema avro = AvroSchemas.toAvro(schema);

    assertThat(avro.getFields()).extracting(Schema.Field::name).containsExactly("a_b", "a_b_2", "_1col", "_");
  }

  @Test
  void timestampNtzIsRefusedNamingTheColumn() {
    StructType schema = StructType.empty().add("s", StructType.empty().add("t", PrimitiveType.TIMESTAMP_NTZ));

    assertThatThrownBy(() -> AvroSchemas.toAvro(schema))
        .isInstanceOf(UnsupportedTableFeatureException.class)
        .hasMessageStartingWith("Column 's.t' is timestamp_ntz, which needs the timestampNtz table feature");
  }
}
