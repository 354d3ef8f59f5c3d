package dev.sluice.table.internal.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class WriteOptionsTest {
  @Test
  void sizesAreBytesOrBinaryUnitsAsSparkWritesThem() {
    assertThat(WriteOptions.parseSize("134217728")).isEqualTo(134_217_728L);
    assertThat(WriteOptions.parseSize(" 128mb ")).isEqualTo(128L << 20);
    assertThat(WriteOptions.parseSize("1 GB")).isEqualTo(1L << 30);
    assertThat(WriteOptions.parseSize("512k")).isEqualTo(512L << 10);
    assertThat(WriteOptions.parseSize("100b")).isEqualTo(100);
  }

  @Test
  void whatIsNotASizeIsMinusOne() {
    assertThat(WriteOptions.parseSize("lots")).isEqualTo(-1);
    assertThat(WriteOptions.parseSize("-5")).isEqualTo(-1);
    assertThat(WriteOptions.parseSize("12tb")).isEqualTo(-1);
    assertThat(WriteOptions.parseSize("99999999999gb")).isEqualTo(-1);
    assertThat(WriteOptions.parseSize("")).isEqualTo(-1);
  }

  @Test
  void theTablePropertyAppliesOnlyWhenTheWriteChoseNoSize() {
    Map<String, String> table = Map.of("delta.targetFileSize", "32mb");

    assertThat(WriteOptions.DEFAULT.forTable(table).targetFileSizeBytes()).isEqualTo(32L << 20);
    assertThat(WriteOptions.DEFAULT.withTargetFileSize(1000).forTable(table).targetFileSizeBytes()).isEqualTo(1000);
    assertThat(WriteOptions.DEFAULT.forTable(Map.of()).targetFileSizeBytes()).isEqualTo(128L << 20);
    assertThat(WriteOptions.DEFAULT.forTable(Map.of("delta.targetFileSize", "0")).targetFileSizeBytes())
        .isEqualTo(128L << 20);
  }
}
