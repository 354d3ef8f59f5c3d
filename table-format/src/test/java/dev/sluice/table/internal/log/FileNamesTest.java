package dev.sluice.table.internal.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class FileNamesTest {
  @Test
  void buildsNames() {
    String log = FileNames.logPath("bronze/orders/");

    assertThat(log).isEqualTo("bronze/orders/_delta_log");
    assertThat(FileNames.deltaFile(log, 7)).isEqualTo("bronze/orders/_delta_log/00000000000000000007.json");
    assertThat(FileNames.checkpointFile(log, 10)).isEqualTo("bronze/orders/_delta_log/00000000000000000010.checkpoint.parquet");
    assertThat(FileNames.checkpointPartFile(log, 1, 2, 2))
        .isEqualTo("bronze/orders/_delta_log/00000000000000000001.checkpoint.0000000002.0000000002.parquet");
    assertThat(FileNames.lastCheckpointFile(log)).isEqualTo("bronze/orders/_delta_log/_last_checkpoint");
  }

  @Test
  void classifiesNames() {
    assertThat(FileNames.isCommitFile("t/_delta_log/00000000000000000007.json")).isTrue();
    assertThat(FileNames.isCommitFile("00000000000000000007.crc")).isFalse();
    assertThat(FileNames.isCommitFile("00000000000000000001.00000000000000000003.compacted.json")).isFalse();
    assertThat(FileNames.isCommitFile(".sluice-tmp-00000000000000000007.json-1")).isFalse();
    assertThat(FileNames.isCheckpointFile("00000000000000000010.checkpoint.parquet")).isTrue();
    assertThat(FileNames.isCheckpointFile("00000000000000000001.checkpoint.0000000001.0000000002.parquet")).isTrue();
    assertThat(FileNames.isCheckpointFile("00000000000000000002.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.json"))
        .isFalse();
    assertThat(FileNames.checkpointParts("00000000000000000001.checkpoint.0000000001.0000000002.parquet")).isEqualTo(2);
    assertThat(FileNames.checkpointParts("00000000000000000010.checkpoint.parquet")).isEqualTo(1);
    assertThat(FileNames.checkpointPart("00000000000000000001.checkpoint.0000000001.0000000002.parquet"))
        .isEqualTo(OptionalInt.of(1));
    assertThat(FileNames.versionOf("t/_delta_log/00000000000000000010.checkpoint.parquet")).isEqualTo(10);
  }

  @Test
  void versionOfRejectsOtherNames() {
    assertThatThrownBy(() -> FileNames.versionOf("_last_checkpoint"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Not a versioned Delta log file name: _last_checkpoint");
  }
}
