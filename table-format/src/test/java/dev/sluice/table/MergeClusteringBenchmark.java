package dev.sluice.table;

import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;

/**
 * A by-hand measurement, not a test: what a 1 % MERGE increment touches in a keyed table of N rows (default
 * 2,000,000) built from 10 batches whose keys arrive shuffled over the whole key space, at {@code delta.targetFileSize}
 * 4 MB. Layouts: "arrival" (rows written in arrival order, as MERGE inserts were before they were sorted),
 * "merge-sorted" (MERGE inserts sorted by key), "clustered" (that, then OPTIMIZE clustered by the key). Increments:
 * "local" updates 1 % of the keys in one contiguous key range, "uniform" 1 % anywhere. Run with the test classpath:
 * {@code java -Xmx1g -cp target/test-classes:target/classes:<deps> dev.sluice.table.MergeClusteringBenchmark [rows]}.
 */
public final class MergeClusteringBenchmark {
  private static final int BATCHES = 10;

  private MergeClusteringBenchmark() {}

  public static void main(String[] args) throws IOException {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
    Path root = Files.createTempDirectory("sluice-cluster-bench");
    System.out.println("layout,dvs,increment,files,filesScanned,filesRemovedOrMarked,bytesRemoved,bytesAdded,rowsCopied,seconds");
    for (boolean dvs : new boolean[] {false, true}) {
      Path arrival = root.resolve("arrival-" + dvs);
      Path sorted = root.resolve("sorted-" + dvs);
      Path clustered = root.resolve("clustered-" + dvs);
      build(arrival, rows, dvs, false);
      build(sorted, rows, dvs, true);
      copy(sorted, clustered);
      long t0 = System.nanoTime();
      Optimize.Result o = table(clustered).optimize().execute();
      System.out.printf(Locale.ROOT, "# OPTIMIZE (cluster by id, dvs=%s): %d files -> %d, %.1f s%n", dvs, o.filesRemoved(),
          o.filesAdded(), (System.nanoTime() - t0) / 1e9);
      for (String increment : new String[] {"local", "uniform"}) {
        for (Path layout : List.of(arrival, sorted, clustered)) {
          Path copy = root.resolve(layout.getFileName() + "-" + increment);
          copy(layout, copy);
          measure(copy, layout.getFileName().toString().replace("-" + dvs, ""), dvs, increment, rows);
        }
      }
    }
  }

  private static Table table(Path dir) {
    return Table.forPath(new LocalObjectStore(dir), "t");
  }

  static Row row(int id, int version) {
    return Row.of(String.format(Locale.ROOT, "k%08d", id), "c" + (id % 1000), Orders.T0.plusSeconds(id), id * 0.25,
        version == 0 ? "open" : "paid", Orders.T0.plusSeconds(version));
  }

  /** Batch b holds the ids i with i % BATCHES == b, in a shuffled order: every batch spans the key space. */
  private static void build(Path dir, int rows, boolean dvs, boolean merge) {
    Table table = table(dir);
    table.create(Orders.SCHEMA).property("delta.enableDeletionVectors", Boolean.toString(dvs))
        .property("delta.targetFileSize", "4mb").clusterBy("id").commit();
    Random random = new Random(3);
    for (int b = 0; b < BATCHES; b++) {
      List<Row> batch = new ArrayList<>(rows / BATCHES);
      for (int i = b; i < rows; i += BATCHES) {
        batch.add(row(i, 0));
      }
      java.util.Collections.shuffle(batch, random);
      if (merge) {
        table.newMerge().source(Orders.SCHEMA, batch).on("id").whenMatchedUpdate().whenNotMatchedInsert().commit();
      } else {
        table.newAppend().rows(batch).commit();
      }
    }
  }

  private static void measure(Path dir, String layout, boolean dvs, String increment, int rows) {
    Table table = table(dir);
    int files = table.latestSnapshot().files().size();
    int n = rows / 100;
    Random random = new Random(9);
    List<Row> source = new ArrayList<>(n);
    java.util.Set<Integer> picked = new java.util.HashSet<>();
    int start = rows / 2;
    while (source.size() < n) {
      int id = increment.equals("local") ? start + source.size() : random.nextInt(rows);
      if (picked.add(id)) {
        source.add(row(id, 1));
      }
    }
    long t0 = System.nanoTime();
    CommitResult r = table.newMerge().source(Orders.SCHEMA, source).on("id").whenMatchedUpdate().whenNotMatchedInsert()
        .commit();
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf(Locale.ROOT, "%s,%s,%s,%d,%d,%d,%d,%d,%d,%.2f%n", layout, dvs, increment, files,
        r.metric("numTargetFilesScanned"), r.metric("numTargetFilesRemoved") + r.metric("numTargetDeletionVectorsAdded"),
        r.metric("numTargetBytesRemoved"), r.metric("numTargetBytesAdded"), r.metric("numTargetRowsCopied"), seconds);
  }

  private static void copy(Path from, Path to) {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
