package dev.sluice.table.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Spark DDL schema strings become the StructType Spark's {@code StructType.fromDDL} makes of them. */
class StructTypeFromDdlTest {
  @Test
  void everyPrimitiveTypeAndAliasIsRead() {
    StructType schema = StructType.fromDdl("s STRING, v VARCHAR(10), c char(2), b BOOLEAN, t1 TINYINT, t2 byte,"
        + " s1 SMALLINT, s2 short, i1 INT, i2 Integer, l1 BIGINT, l2 long, f1 FLOAT, f2 REAL, d DOUBLE, dt DATE,"
        + " ts TIMESTAMP, ltz TIMESTAMP_LTZ, ntz TIMESTAMP_NTZ, bin BINARY");
    assertThat(schema.fields()).extracting(StructField::type).containsExactly(PrimitiveType.STRING,
        PrimitiveType.STRING, PrimitiveType.STRING, PrimitiveType.BOOLEAN, PrimitiveType.BYTE, PrimitiveType.BYTE,
        PrimitiveType.SHORT, PrimitiveType.SHORT, PrimitiveType.INTEGER, PrimitiveType.INTEGER, PrimitiveType.LONG,
        PrimitiveType.LONG, PrimitiveType.FLOAT, PrimitiveType.FLOAT, PrimitiveType.DOUBLE, PrimitiveType.DATE,
        PrimitiveType.TIMESTAMP, PrimitiveType.TIMESTAMP, PrimitiveType.TIMESTAMP_NTZ, PrimitiveType.BINARY);
    assertThat(schema.fields()).allMatch(StructField::nullable);
  }

  @Test
  void decimalsNotNullBacktickedNamesAndComments() {
    StructType schema = StructType.fromDdl(" `order id` DECIMAL(10, 2) NOT NULL COMMENT 'the key',"
        + " `a``b` decimal, n NUMERIC(5), x dec(38,38) not null ");
    assertThat(schema).isEqualTo(new StructType(java.util.List.of(
        new StructField("order id", DecimalType.of(10, 2), false, Map.of("comment", "the key")),
        StructField.of("a`b", DecimalType.of(10, 0)),
        StructField.of("n", DecimalType.of(5, 0)),
        StructField.of("x", DecimalType.of(38, 38), false))));
  }

  @Test
  void nestedStructsArraysAndMaps() {
    StructType schema = StructType.fromDdl("ship STRUCT<city: STRING, zip INT NOT NULL>, tags ARRAY<STRING>,"
        + " attrs MAP<STRING, ARRAY<BIGINT>>, empty STRUCT<>");
    assertThat(schema).isEqualTo(StructType.of(
        StructField.of("ship", StructType.of(StructField.of("city", PrimitiveType.STRING),
            StructField.of("zip", PrimitiveType.INTEGER, false))),
        StructField.of("tags", new ArrayType(PrimitiveType.STRING, true)),
        StructField.of("attrs", new MapType(PrimitiveType.STRING, new ArrayType(PrimitiveType.LONG, true), true)),
        StructField.of("empty", StructType.empty())));
    assertThat(StructType.fromJson(schema.toJson())).isEqualTo(schema);
  }

  @Test
  void mistakesNameWhatAndWhere() {
    assertThatThrownBy(() -> StructType.fromDdl("id BIGINT, amount MONEY"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot read the schema 'id BIGINT, amount MONEY': unknown type `money`; known types:")
        .hasMessageContaining("at position 19 (`MONEY`)");
    assertThatThrownBy(() -> StructType.fromDdl("id BIGINT NOT"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected NULL after NOT at the end");
    assertThatThrownBy(() -> StructType.fromDdl("a DECIMAL(40,2)"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("decimal(40,2) is not a valid decimal");
    assertThatThrownBy(() -> StructType.fromDdl("a INT, A STRING"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duplicate column `A` at position 8");
    assertThatThrownBy(() -> StructType.fromDdl("a ARRAY<INT"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected `>` at the end");
    assertThatThrownBy(() -> StructType.fromDdl("a INT b STRING"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected `,` or the end of the schema at position 7 (`b STRING`)");
  }
}
