package dev.sluice.ingestion.state.internal;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A by-hand measurement, not a test: 1,000,000 keys (string key, long count) put and committed,
 * then 100 batches each updating 10,000 random keys; prints, per compression, commit times, heap
 * and disk bytes per key, and the time to load the last version from files in a new provider. Run
 * with the test classpath:
 * {@code java -Xmx3g -cp target/test-classes:target/classes:<deps>
 * dev.sluice.ingestion.state.internal.StateStoreBenchmark [keys] [batches] [updates] [snapshotInterval]
 * [SNAPPY|DEFLATE|NONE...]}.
 */
public final class StateStoreBenchmark {
  private static final StateSchema SCHEMA = new StateSchema(StructType.empty().add("user", PrimitiveType.STRING),
      StructType.empty().add("count", PrimitiveType.LONG));

  private StateStoreBenchmark() {}

  public static void main(String[] args) throws IOException {
    int keys = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int batches = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int updates = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
    int interval = args.length > 3 ? Integer.parseInt(args[3]) : 10;
    List<Compression> codecs = args.length > 4
        ? Arrays.stream(args, 4, args.length).map(Compression::valueOf).toList()
        : List.of(Compression.SNAPPY, Compression.DEFLATE, Compression.NONE);
    for (Compression c : codecs) {
      run(c, keys, batches, updates, interval);
    }
  }

  private static void run(Compression compression, int keys, int batches, int updates, int interval)
      throws IOException {
    Path dir = Files.createTempDirectory("state-bench");
    Location folder = new Location(new LocalObjectStore(dir), "state/0/0");
    long heapBefore = usedHeap();
    InMemoryStateStoreProvider p = new InMemoryStateStoreProvider(folder, SCHEMA, interval, compression);
    StateStore first = p.load(1);
    for (int i = 0; i < keys; i++) {
      first.put(Row.of(user(i)), Row.of(0L));
    }
    long start = System.nanoTime();
    first.commit();
    long firstCommitMs = (System.nanoTime() - start) / 1_000_000;
    long estimate = first.metrics().memoryUsedBytes();
    first = null;
    long heapPerKey = (usedHeap() - heapBefore) / keys;

    SplittableRandom random = new SplittableRandom(42);
    long[] plain = new long[batches];
    long[] withSnapshot = new long[batches];
    int nPlain = 0;
    int nSnapshot = 0;
    for (int b = 0; b < batches; b++) {
      StateStore s = p.load(b + 2);
      for (int u = 0; u < updates; u++) {
        Row k = Row.of(user(random.nextInt(keys)));
        Row old = s.get(k);
        s.put(k, Row.of((Long) old.get(0) + 1));
      }
      s.commit();
      if ((b + 2) % interval == 0) {
        withSnapshot[nSnapshot++] = s.metrics().commitTimeMs();
      } else {
        plain[nPlain++] = s.metrics().commitTimeMs();
      }
    }
    long lastVersion = batches + 1;
    long deltaBytes = 0;
    long deltas = 0;
    long snapshotBytes = 0;
    for (ObjectStatus f : folder.store().list("state/0/0/").toList()) {
      if (f.name().endsWith(".delta") && !f.name().equals("1.delta")) {
        deltaBytes += f.size();
        deltas++;
      } else if (f.name().endsWith(".snapshot")) {
        snapshotBytes = Math.max(snapshotBytes, f.size());
      }
    }
    p.close();
    long loadStart = System.nanoTime();
    InMemoryStateStoreProvider restarted = new InMemoryStateStoreProvider(folder, SCHEMA, interval, compression);
    StateStore loaded = restarted.load(lastVersion + 1);
    long loadMs = (System.nanoTime() - loadStart) / 1_000_000;
    long size = loaded.size();
    restarted.close();
    deleteTree(dir);

    System.out.printf(Locale.ROOT, "{\"compression\":\"%s\",\"keys\":%d,\"firstCommitMs\":%d,"
            + "\"commitMsPerBatch\":{\"median\":%d,\"p90\":%d,\"max\":%d},"
            + "\"snapshotCommitMs\":{\"median\":%d,\"max\":%d},"
            + "\"heapBytesPerKeyMeasured\":%d,\"heapBytesPerKeyEstimated\":%d,\"deltaBytesPerUpdatedKey\":%.1f,"
            + "\"snapshotBytesPerKey\":%.1f,\"loadFromFilesMs\":%d,\"loadedKeys\":%d}%n",
        compression, keys, firstCommitMs, percentile(plain, nPlain, 50), percentile(plain, nPlain, 90),
        percentile(plain, nPlain, 100), percentile(withSnapshot, nSnapshot, 50),
        percentile(withSnapshot, nSnapshot, 100),
        heapPerKey, estimate / keys, deltas == 0 ? 0.0 : (double) deltaBytes / deltas / updates,
        (double) snapshotBytes / keys, loadMs, size);
  }

  private static String user(int i) {
    return "user-" + i;
  }

  private static long percentile(long[] values, int n, int p) {
    if (n == 0) {
      return -1;
    }
    long[] sorted = Arrays.copyOf(values, n);
    Arrays.sort(sorted);
    return sorted[Math.min(n - 1, (int) Math.ceil(p / 100.0 * n) - 1)];
  }

  private static long usedHeap() {
    Runtime rt = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return rt.totalMemory() - rt.freeMemory();
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }
}
