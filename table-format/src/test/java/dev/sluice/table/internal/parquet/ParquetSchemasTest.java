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
import org.junit.jupiter.api.Test;

class ParquetSchemasTest {
  @Test
  void typesMapAsSparkWritesThem() {
    StructType schema = StructType.empty()
        .add("ts", PrimitiveType.TIMESTAMP)
        .add("d", PrimitiveType.DATE)
        .add("b", PrimitiveType.BYTE)
        .add("dec", DecimalType.of(9, 2))
        .add("dec18", DecimalType.of(18, 4))
        .add("dec19", DecimalType.of(19, 0))
        .add(StructField.of("bin", PrimitiveType.BINARY, false))
        .add("arr", new ArrayType(PrimitiveType.STRING, false))
        .add("m", new MapType(PrimitiveType.STRING, PrimitiveType.LONG, true));

    assertThat(ParquetSchemas.toParquet(schema).toString()).isEqualToIgnoringWhitespace("""
        message spark_schema {
          optional int64 ts (TIMESTAMP(MICROS,true));
          optional int32 d (DATE);
          optional int32 b (INTEGER(8,true));
          optional int32 dec (DECIMAL(9,2));
          optional int64 dec18 (DECIMAL(18,4));
          optional fixed_len_byte_array(9) dec19 (DECIMAL(19,0));
          required binary bin;
          optional group arr (LIST) { repeated group list { required binary element (STRING); } }
          optional group m (MAP) { repeated group key_value { required binary key (STRING); optional int64 value; } }
        }""");
  }

  @Test
  void decimalWidthsAreSparksMinimalBytes() {
    assertThat(ParquetSchemas.fixedLength(1)).isEqualTo(1);
    assertThat(ParquetSchemas.fixedLength(9)).isEqualTo(4);
    assertThat(ParquetSchemas.fixedLength(10)).isEqualTo(5);
    assertThat(ParquetSchemas.fixedLength(18)).isEqualTo(8);
    assertThat(ParquetSchemas.fixedLength(25)).isEqualTo(11);
    assertThat(ParquetSchemas.fixedLength(38)).isEqualTo(16);
  }

  @Test
  void timestampNtzIsRefusedNamingTheColumn() {
    StructType schema = StructType.empty().add("s", StructType.empty().add("t", PrimitiveType.TIMESTAMP_NTZ));

    assertThatThrownBy(() -> ParquetSchemas.toParquet(schema))
        .isInstanceOf(UnsupportedTableFeatureException.class)
        .hasMessageStartingWith("Column 's.t' is timestamp_ntz, which needs the timestampNtz table feature");
  }
}
