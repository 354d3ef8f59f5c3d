package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.storage.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogCleanupTest {
  @TempDir Path dir;
  Table table;

  @BeforeEach
  void setUp() {
    table = Table.forPath(new LocalObjectStore(dir), "t");
  }

  private Path log(long version, String suffix) {
    return dir.resolve(String.format("t/_delta_log/%020d.%s", version, suffix));
  }

  /** Creates versions 0..last (checkpoints every 10), then makes commits 0..agedUpTo 40 days old. */
  private void commits(long last, long agedUpTo, String... properties) throws Exception {
    CreateTable create = table.create(Orders.SCHEMA);
    for (int i = 0; i + 1 < properties.length; i += 2) {
      create = create.property(properties[i], properties[i + 1]);
    }
    create.commit();
    for (int v = 1; v <= last; v++) {
      table.newAppend().rows(Orders.range(v, v + 1)).commit();
    }
    age(agedUpTo);
  }

  private void age(long upTo) throws Exception {
    Instant old = Instant.now().minus(Duration.ofDays(40));
    for (long v = 0; v <= upTo; v++) {
      Files.setLastModifiedTime(log(v, "json"), FileTime.from(old.plusSeconds(v)));
      if (Files.exists(log(v, "checkpoint.parquet"))) {
        Files.setLastModifiedTime(log(v, "checkpoint.parquet"), FileTime.from(old.plusSeconds(v)));
      }
    }
  }

  private long rowsAt(long version) {
    try (CloseableIterator<Row> it = table.snapshotAt(version).scan().build().rows()) {
      return it.toList().size();
    }
  }

  @Test
  void expiredCommitsAndCheckpointsBelowTheNewestExpiredCheckpointAreDeleted() throws Exception {
    commits(25, 22, "delta.enableExpiredLogCleanup", "false");

    LogCleanup.Result r = table.cleanUpLog().execute();

    assertThat(r.retention()).isEqualTo(Duration.ofDays(30));
    assertThat(r.earliestVersion()).hasValue(20);
    assertThat(r.files()).hasSize(21); // 0..19.json and the checkpoint of 10
    assertThat(log(19, "json")).doesNotExist();
    assertThat(log(10, "checkpoint.parquet")).doesNotExist();
    assertThat(log(20, "json")).exists();
    assertThat(log(20, "checkpoint.parquet")).exists();
    assertThat(TableWriteTest.rows(table)).hasSize(25);
    assertThat(rowsAt(20)).isEqualTo(20);
    assertThat(rowsAt(23)).isEqualTo(23);
    assertThatThrownBy(() -> table.snapshotAt(19)).isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining("its log files were cleaned up").hasMessageContaining("Versions 20 to 25 are available");
  }

  @Test
  void nothingIsDeletedWhileEveryCheckpointIsYoungerThanTheRetention() throws Exception {
    commits(25, -1, "delta.enableExpiredLogCleanup", "false");

    LogCleanup.Result r = table.cleanUpLog().execute();

    assertThat(r.earliestVersion()).isEmpty();
    assertThat(r.files()).isEmpty();
    assertThat(rowsAt(3)).isEqualTo(3);
  }

  @Test
  void aDryRunOnlyLists() throws Exception {
    commits(12, 12, "delta.enableExpiredLogCleanup", "false");

    LogCleanup.Result r = table.cleanUpLog().dryRun(true).execute();

    assertThat(r.files()).hasSize(10);
    assertThat(log(0, "json")).exists();
  }

  @Test
  void aCommitThatWritesACheckpointCleansUpExpiredLogFiles() throws Exception {
    commits(18, 18);
    assertThat(log(0, "json")).exists();

    table.newAppend().rows(Orders.range(19, 20)).commit();
    table.newAppend().rows(Orders.range(20, 21)).commit(); // version 20 writes a checkpoint

    assertThat(log(0, "json")).doesNotExist();
    assertThat(log(9, "json")).doesNotExist();
    assertThat(log(10, "json")).exists();
    assertThat(rowsAt(10)).isEqualTo(10);
    assertThat(TableWriteTest.rows(table)).hasSize(20);
  }

  @Test
  void theTablePropertiesSetTheRetentionAndCanTurnTheAutomaticCleanupOff() throws Exception {
    commits(18, 18, "delta.enableExpiredLogCleanup", "false", "delta.logRetentionDuration", "interval 60 days");
    table.newAppend().rows(Orders.range(19, 20)).commit();
    table.newAppend().rows(Orders.range(20, 21)).commit();
    assertThat(log(0, "json")).exists();

    assertThat(table.cleanUpLog().execute().files()).isEmpty();
    assertThat(table.cleanUpLog().retain(Duration.ofDays(30)).execute().earliestVersion()).hasValue(10);
  }
}
