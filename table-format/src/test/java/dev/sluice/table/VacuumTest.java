package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.exceptions.InvalidTableException;
import dev.sluice.table.exceptions.UnsupportedTableFeatureException;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.storage.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VacuumTest {
  @TempDir Path dir;
  Table table;
  List<Row> rows;

  /** Five small appends compacted by OPTIMIZE (version 6): the five old files are removed but still on disk. */
  @BeforeEach
  void compactedTable() {
    table = Table.forPath(new LocalObjectStore(dir), "silver/orders");
    table.create(Orders.SCHEMA).commit();
    for (int i = 0; i < 5; i++) {
      table.newAppend().rows(Orders.range(i * 10, i * 10 + 10)).commit();
    }
    table.optimize().execute();
    rows = TableWriteTest.rows(table);
  }

  static void age(Path file, Duration by) throws Exception {
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(by)));
  }

  private long parquetFilesUnder(String folder) throws Exception {
    try (Stream<Path> s = Files.walk(dir.resolve(folder))) {
      return s.filter(p -> p.toString().endsWith(".parquet")).count();
    }
  }

  @Test
  void theDefaultRetentionKeepsRecentlyRemovedFilesSoTimeTravelStillWorks() throws Exception {
    Vacuum.Result r = table.vacuum().execute();

    assertThat(r.retention()).isEqualTo(Duration.ofDays(7));
    assertThat(r.files()).isEmpty();
    try (CloseableIterator<Row> it = table.snapshotAt(5).scan().build().rows()) {
      assertThat(it.toList()).hasSize(50);
    }
  }

  @Test
  void aRetentionBelowTheTablesIsRefusedWithoutForceNamingThePropertyAndTheFlag() {
    assertThatThrownBy(() -> table.vacuum().retain(Duration.ofHours(1)).execute())
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining("retention of 1h is refused")
        .hasMessageContaining("delta.deletedFileRetentionDuration (168h)")
        .hasMessageContaining("--force");
  }

  @Test
  void aDryRunListsTheRemovedFilesAndDeletesNothing() throws Exception {
    Vacuum.Result r = table.vacuum().retain(Duration.ZERO).force(true).dryRun(true).execute();

    assertThat(r.dryRun()).isTrue();
    assertThat(r.files()).hasSize(5).allSatisfy(k -> assertThat(k).startsWith("silver/orders/part-"));
    assertThat(r.bytes()).isPositive();
    assertThat(parquetFilesUnder("silver/orders")).isEqualTo(6);
  }

  @Test
  void forcedZeroRetentionDeletesTheRemovedFilesAndKeepsTheLatestVersionReadable() throws Exception {
    Vacuum.Result r = table.vacuum().retain(Duration.ZERO).force(true).execute();

    assertThat(r.files()).hasSize(5);
    assertThat(parquetFilesUnder("silver/orders")).isEqualTo(1);
    assertThat(TableWriteTest.rows(table)).containsExactlyElementsOf(rows);
    assertThatThrownBy(() -> table.snapshotAt(5).scan().build().rows().toList())
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("does not exist");
    assertThat(table.vacuum().retain(Duration.ZERO).force(true).execute().files()).isEmpty();
  }

  @Test
  void aShorterRetentionIsAllowedWhenTheTablePropertySaysSo() {
    Table t = Table.forPath(new LocalObjectStore(dir), "bronze/events");
    t.create(Orders.SCHEMA).property("delta.deletedFileRetentionDuration", "interval 1 hours").commit();

    Vacuum.Result r = t.vacuum().retain(Duration.ofHours(1)).execute();

    assertThat(r.retention()).isEqualTo(Duration.ofHours(1));
    assertThat(t.vacuum().execute().retention()).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void aRetentionLongerThanTheTablesStillKeepsFilesRemovedWithinIt() throws Exception {
    Table t = Table.forPath(new LocalObjectStore(dir), "bronze/short");
    // The snapshot keeps no tombstones at all, so only the commits tell what was removed within the hour.
    t.create(Orders.SCHEMA).property("delta.deletedFileRetentionDuration", "interval 0 seconds").commit();
    t.newAppend().rows(Orders.range(0, 5)).commit();
    t.newAppend().rows(Orders.range(5, 10)).commit();
    t.optimize().execute();
    try (Stream<Path> s = Files.walk(dir.resolve("bronze/short"))) {
      for (Path p : s.filter(p -> p.toString().endsWith(".parquet")).toList()) {
        age(p, Duration.ofHours(2));
      }
    }

    assertThat(t.vacuum().retain(Duration.ofHours(1)).execute().files()).isEmpty();
    try (CloseableIterator<Row> it = t.snapshotAt(2).scan().build().rows()) {
      assertThat(it.toList()).hasSize(10);
    }
    assertThat(t.vacuum().execute().files()).as("the table's own retention, 0 s").hasSize(2);
  }

  @Test
  void orphanFilesGoOnlyOnceOlderThanTheRetention() throws Exception {
    Path old = dir.resolve("silver/orders/part-00000-orphan-old.c000.snappy.parquet");
    Path young = dir.resolve("silver/orders/part-00000-orphan-young.c000.snappy.parquet");
    Files.write(old, new byte[] {1});
    Files.write(young, new byte[] {1});
    age(old, Duration.ofHours(2));

    Vacuum.Result r = table.vacuum().retain(Duration.ofHours(1)).force(true).execute();

    assertThat(r.files()).containsExactly("silver/orders/part-00000-orphan-old.c000.snappy.parquet");
    assertThat(young).exists();
    assertThat(TableWriteTest.rows(table)).containsExactlyElementsOf(rows);
  }

  @Test
  void underscoreFoldersHiddenFilesAndSiblingTablesAreNeverTouched() throws Exception {
    Table tombstones = Table.forPath(new LocalObjectStore(dir), "silver/orders/_tombstones");
    tombstones.create(Orders.SCHEMA).commit();
    tombstones.newAppend().rows(Orders.range(0, 3)).commit();
    Table quarantine = Table.forPath(new LocalObjectStore(dir), "silver/orders_quarantine");
    quarantine.create(Orders.SCHEMA).commit();
    quarantine.newAppend().rows(Orders.range(0, 2)).commit();
    Path query = dir.resolve("silver/orders/_checkpoints/q1/offsets/0");
    Files.createDirectories(query.getParent());
    Files.writeString(query, "v1");
    Path hidden = dir.resolve("silver/orders/.part-0.crc");
    Files.write(hidden, new byte[] {1});
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        age(p, Duration.ofDays(30));
      }
    }

    Vacuum.Result r = table.vacuum().retain(Duration.ZERO).force(true).execute();

    assertThat(r.files()).hasSize(5).allSatisfy(k -> assertThat(k).doesNotContain("_tombstones", "_checkpoints",
        "quarantine", "_delta_log", ".crc"));
    assertThat(query).exists();
    assertThat(hidden).exists();
    assertThat(TableWriteTest.rows(tombstones)).hasSize(3);
    assertThat(TableWriteTest.rows(quarantine)).hasSize(2);
    assertThat(TableWriteTest.rows(table)).containsExactlyElementsOf(rows);
    assertThat(table.latestVersion()).hasValue(6);
  }

  @Test
  void changeDataFilesOfCommitsWithinTheRetentionAreKept() throws Exception {
    Table cdf = Table.forPath(new LocalObjectStore(dir), "silver/customers");
    cdf.create(Orders.SCHEMA).enableChangeDataFeed().commit();
    cdf.newAppend().rows(Orders.range(0, 10)).commit();
    cdf.newDelete().where(Predicate.eq("id", "o000001")).commit();
    Path changeData = dir.resolve("silver/customers/_change_data");
    List<Path> cdcFiles;
    try (Stream<Path> s = Files.walk(changeData)) {
      cdcFiles = s.filter(p -> p.toString().endsWith(".parquet")).toList();
    }
    assertThat(cdcFiles).hasSize(1);
    age(cdcFiles.get(0), Duration.ofHours(3));

    assertThat(cdf.vacuum().retain(Duration.ofHours(1)).force(true).execute().files())
        .noneMatch(k -> k.contains("_change_data"));
    assertThat(cdf.changes(2, 2).rows().toList()).hasSize(1);

    age(dir.resolve("silver/customers/_delta_log/00000000000000000002.json"), Duration.ofHours(3));
    age(dir.resolve("silver/customers/_delta_log/00000000000000000001.json"), Duration.ofHours(4));
    age(dir.resolve("silver/customers/_delta_log/00000000000000000000.json"), Duration.ofHours(5));
    assertThat(cdf.vacuum().retain(Duration.ofHours(1)).force(true).execute().files())
        .anyMatch(k -> k.startsWith("silver/customers/_change_data/"));
    assertThat(cdcFiles.get(0)).doesNotExist();
  }

  /** Copies the golden table whose protocol has vacuumProtocolCheck, optionally adding a writer feature. */
  private Table vacuumProtocolCheckTable(String extraWriterFeature) throws Exception {
    Path golden = Path.of(System.getProperty("sluice.shared.dir", "../../shared"), "delta-golden",
        "basic-with-vacuum-protocol-check-feature");
    assertThat(golden).as("golden table (set sluice.shared.dir)").isDirectory();
    Path target = dir.resolve("golden");
    try (Stream<Path> s = Files.walk(golden)) {
      for (Path p : s.toList()) {
        Path to = target.resolve(golden.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
        } else {
          Files.copy(p, to);
          to.toFile().setWritable(true);
        }
      }
    }
    if (extraWriterFeature != null) {
      Files.writeString(target.resolve("_delta_log/00000000000000000002.json"),
          "{\"commitInfo\":{\"timestamp\":1711484007000,\"operation\":\"SET TBLPROPERTIES\"}}\n"
          + "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":[\"vacuumProtocolCheck\"],"
          + "\"writerFeatures\":[\"appendOnly\",\"invariants\",\"vacuumProtocolCheck\",\"" + extraWriterFeature + "\"]}}\n");
    }
    return Table.forPath(new LocalObjectStore(dir), "golden");
  }

  @Test
  void aTableWithVacuumProtocolCheckIsVacuumedWhenSluiceSupportsItsWriterProtocol() throws Exception {
    Table golden = vacuumProtocolCheckTable(null);

    Vacuum.Result r = golden.vacuum().dryRun(true).execute();

    assertThat(r.version()).isEqualTo(1);
    assertThat(r.files()).isEmpty();
    assertThat(golden.latestSnapshot().numRecords()).hasValue(100);
  }

  @Test
  void vacuumProtocolCheckRefusesATableWithAWriterFeatureSluiceDoesNotSupport() throws Exception {
    Table golden = vacuumProtocolCheckTable("futureWriterFeature");

    assertThatThrownBy(() -> golden.vacuum().execute())
        .isInstanceOf(UnsupportedTableFeatureException.class)
        .hasMessageContaining("Cannot write to")
        .hasMessageContaining("futureWriterFeature");
    assertThat(golden.latestSnapshot().numRecords()).as("reading is still fine").hasValue(100);
  }
}
