package dev.sluice.ingestion;

import dev.sluice.ingestion.state.StateStoreSettings;
import dev.sluice.ingestion.state.StateStoreType;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Child process of {@link RocksDbLargeStateIT}: {@code dropDuplicatesWithinWatermark} over {@code keys} distinct
 * event ids (a rate source, {@code perBatch} rows a batch, a 1-hour watermark so that every id stays in state)
 * followed by a 1-minute window count per key, on the RocksDB store. Prints
 * {@code RESULT <dedupRows> <aggRows> <heapUsedAfterGcBytes> <maxHeapBytes> <localSstBytes> <peakHeapBytes>
 * <seconds>} and exits 0.
 */
public final class LargeStateWorker {
  private LargeStateWorker() {}

  /** The sum of the heap pools' peaks: an upper bound of the heap in use at any one time. */
  private static long peakHeap() {
    return ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
        .mapToLong(p -> p.getPeakUsage().getUsed()).sum();
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long keys = Long.parseLong(args[1]);
    long perBatch = Long.parseLong(args[2]);
    long batches = (keys + perBatch - 1) / perBatch;
    AtomicLong emitted = new AtomicLong();
    StateStoreSettings settings = StateStoreSettings.of(StateStoreType.ROCKSDB).withLocalDir(dir.resolve("local"));
    long start = System.nanoTime();
    try (SluiceSession session = SluiceSession.builder().stateStore(settings).build()) {
      StreamingQuery q = session.readStream().format("rate").option("rowsPerBatch", Long.toString(perBatch))
          .option("startTimestamp", "1700000000000").option("advanceMillisPerBatch", "60000").load()
          .withColumn("key", "value % 100000")
          .withWatermark("timestamp", "1 hour")
          .dropDuplicatesWithinWatermark("value")
          .groupBy("window(timestamp, '1 minute')", "key").agg("count(*) AS n")
          .writeStream().outputMode("append").queryName("large")
          .option("checkpointLocation", dir.resolve("checkpoint").toString())
          .trigger(Trigger.processingTime("0 seconds"))
          .foreachBatch((batch, id) -> emitted.addAndGet(batch.size()))
          .start();
      while (q.lastProgress().map(QueryProgress::batchId).orElse(-1L) < batches - 1) {
        if (q.exception().isPresent()) {
          throw q.exception().get();
        }
        Thread.sleep(50);
      }
      q.stop();
      QueryProgress last = q.recentProgress().stream().filter(p -> p.batchId() == batches - 1).findFirst()
          .orElseThrow();
      System.gc();
      long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      System.out.println("RESULT " + last.stateOperators().get(0).numRowsTotal() + " "
          + last.stateOperators().get(1).numRowsTotal() + " " + heap + " " + Runtime.getRuntime().maxMemory()
          + " " + last.stateOperators().get(0).customMetrics().get("rocksdbSstFileSize") + " " + peakHeap() + " "
          + (System.nanoTime() - start) / 1_000_000_000);
    }
  }
}
