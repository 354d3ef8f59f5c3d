package dev.sluice.table.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Proves {@link KernelReader} over {@code s3a://}: golden tables uploaded to S3Proxy with the AWS
 * SDK read exactly as their local copies do.
 */
class S3AKernelReaderIT {
  // A fresh bucket name per run: Hadoop caches S3A file systems by bucket, not by endpoint.
  private static final String BUCKET = "interop-" + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT);

  private static S3ProxyForInterop s3;
  private static Configuration s3aConf;

  @BeforeAll
  static void uploadGoldenTables() throws Exception {
    s3 = S3ProxyForInterop.start();
    s3.createBucket(BUCKET);
    for (String table : List.of("snapshot-data3", "data-reader-partition-values")) {
      s3.uploadDirectory(GoldenTables.path(table), BUCKET, "golden/" + table);
    }
    s3aConf = KernelReader.s3aConf(s3.endpoint(), S3ProxyForInterop.ACCESS_KEY, S3ProxyForInterop.SECRET_KEY);
  }

  @AfterAll
  static void stopServer() throws Exception {
    try {
      FileSystem.closeAll();
    } finally {
      if (s3 != null) {
        s3.close();
      }
    }
  }

  private static String s3aPath(String table) {
    return "s3a://" + BUCKET + "/golden/" + table;
  }

  private static String localPath(String table) {
    return GoldenTables.path(table).toString();
  }

  @Test
  void readsTheSameRowsAndVersionsAsTheLocalCopy() {
    String s3a = s3aPath("snapshot-data3");
    String local = localPath("snapshot-data3");

    List<List<Object>> rows = KernelReader.sorted(KernelReader.readRows(s3a, s3aConf));

    assertThat(rows).hasSize(30).isEqualTo(KernelReader.sorted(KernelReader.readRows(local, KernelReader.localConf())));
    assertThat(KernelReader.latestVersion(s3a, s3aConf)).isEqualTo(3);
    assertThat(KernelReader.sorted(KernelReader.readRowsAt(s3a, s3aConf, 1)))
        .hasSize(20)
        .isEqualTo(KernelReader.sorted(KernelReader.readRowsAt(local, KernelReader.localConf(), 1)));
  }

  @Test
  void readsEscapedPartitionDirectoriesLikeTheLocalCopy() {
    // Partition directories hold spaces, "%3A" and __HIVE_DEFAULT_PARTITION__: the keys must round-trip.
    String s3a = s3aPath("data-reader-partition-values");
    String local = localPath("data-reader-partition-values");

    List<List<Object>> rows = KernelReader.sorted(KernelReader.readRows(s3a, s3aConf));

    assertThat(KernelReader.columnNames(s3a, s3aConf)).isEqualTo(KernelReader.columnNames(local, KernelReader.localConf()));
    assertThat(rows).hasSize(3)
        .usingRecursiveComparison()
        .isEqualTo(KernelReader.sorted(KernelReader.readRows(local, KernelReader.localConf())));
  }
}
