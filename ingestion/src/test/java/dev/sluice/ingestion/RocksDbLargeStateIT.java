package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stateful query whose state has more keys than a 512 MB heap could hold as rows runs there on RocksDB: a child
 * JVM with {@code -Xmx512m} deduplicates {@code sluice.it.largeStateKeys} distinct ids (default 1,000,000 to stay
 * within the test budget on a 2-core machine) and aggregates them by window and key. The full size:
 * {@code mvn -pl ingestion -am test -Dtest=RocksDbLargeStateIT -Dsurefire.failIfNoSpecifiedTests=false
 * -Dsluice.it.largeStateKeys=10000000} (or {@code bench/run.sh state --keys 10000000}).
 */
class RocksDbLargeStateIT {
  @TempDir
  Path dir;

  @Test
  void millionsOfKeysRunInA512MbHeap() throws Exception {
    long keys = Long.getLong("sluice.it.largeStateKeys", 1_000_000L);
    long perBatch = 250_000;
    Path log = dir.resolve("worker.log");
    Process p = new ProcessBuilder(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
        "-Xmx512m", "-XX:+UseSerialGC", "-Djava.io.tmpdir=" + dir, "-cp", System.getProperty("java.class.path"),
        LargeStateWorker.class.getName(), dir.toString(), Long.toString(keys), Long.toString(perBatch))
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    // 10 minutes, or 2 per million keys for larger runs (10 M keys took 148 s on a 2-core machine at load ~2)
    long timeoutSeconds = Math.max(600, keys / 1_000_000 * 120);
    boolean finished = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
    if (!finished) {
      p.destroyForcibly();
    }
    assertThat(finished).as("finished within %d s", timeoutSeconds).isTrue();
    String out = Files.readString(log);
    assertThat(p.exitValue()).as(out).isZero();
    String[] result = out.lines().filter(l -> l.startsWith("RESULT ")).findFirst().orElseThrow().split(" ");
    long dedupRows = Long.parseLong(result[1]);
    long aggRows = Long.parseLong(result[2]);
    long heapAfterGc = Long.parseLong(result[3]);
    long maxHeap = Long.parseLong(result[4]);
    long sstBytes = Long.parseLong(result[5]);
    long peakHeap = Long.parseLong(result[6]);
    assertThat(dedupRows).as("every id is kept by the 1-hour watermark").isEqualTo(keys);
    assertThat(aggRows).isPositive();
    assertThat(sstBytes).as("rocksdbSstFileSize").isPositive();
    System.out.println("RocksDbLargeStateIT: " + keys + " keys in " + result[7] + " s, heap used after GC "
        + (heapAfterGc >> 20) + " MB, peak heap " + (peakHeap >> 20) + " MB of " + (maxHeap >> 20)
        + " MB, local SST bytes " + sstBytes);
    // The in-memory store would need ~90 bytes of heap per key for the ids alone; this bound allows 8.
    assertThat(heapAfterGc).as("heap used after GC with %d keys in state", keys).isLessThan((64L << 20) + keys * 8);
  }
}
