package dev.sluice.bench;

import dev.sluice.table.Table;
import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.actions.ActionParser;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.actions.CommitInfo;
import dev.sluice.table.internal.log.DeltaLog;
import dev.sluice.table.internal.log.FileNames;
import dev.sluice.table.storage.LocalObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Snapshot load time of a streaming-style table of N commits (one appended file each), with the
 * checkpoint a writer leaves every 10 commits. The log is written directly (no data files), so the
 * figure is log replay alone: {@code _last_checkpoint} → checkpoint → JSON tail.
 */
final class SnapshotLoadBench {
  /** Issue 10: a snapshot of 10,000 commits loads in less than 300 ms. */
  static final int TARGET_COMMITS = 10_000;
  static final double TARGET_LOAD_MS = 300;

  private SnapshotLoadBench() {}

  static Map<String, Object> run(Path dir, int commits) {
    LocalObjectStore store = new LocalObjectStore(dir);
    Table table = Table.forPath(store, "t");
    table.create(OrdersData.SCHEMA).commit();
    DeltaLog log = new DeltaLog(store, "t");
    for (int v = 1; v <= commits; v++) {
      List<Action> actions = new ArrayList<>();
      actions.add(new CommitInfo(System.currentTimeMillis(), "STREAMING UPDATE", Map.of(), (long) v - 1, "Serializable",
          true, Map.of("numFiles", "1"), "Sluice-bench", "bench-" + v, null, null));
      actions.add(AddFile.of(String.format("part-%05d-bench.c000.snappy.parquet", v), Map.of(), 4096, System.currentTimeMillis(),
          "{\"numRecords\":100,\"minValues\":{\"id\":\"o-" + v + "\"},\"maxValues\":{\"id\":\"o-" + v + "z\"},\"nullCount\":{\"id\":0}}"));
      store.create(FileNames.deltaFile(log.logPath(), v), ActionParser.serializeCommit(actions));
    }
    long checkpointVersion = (commits / 10) * 10;
    long c0 = System.nanoTime();
    log.checkpoint(log.snapshotAt(checkpointVersion));
    double checkpointMs = (System.nanoTime() - c0) / 1e6;

    double[] times = new double[7];
    int files = 0;
    for (int i = 0; i < times.length; i++) {
      long t0 = System.nanoTime();
      files = Table.forPath(new LocalObjectStore(dir), "t").latestSnapshot().files().size();
      times[i] = (System.nanoTime() - t0) / 1e6;
    }
    double[] warm = Arrays.copyOfRange(times, 1, times.length);
    Arrays.sort(warm);
    Map<String, Object> out = Json.object();
    out.put("benchmark", "snapshot_load");
    out.put("commits", commits);
    out.put("live_files", files);
    out.put("first_load_ms", Math.round(times[0] * 10) / 10.0);
    out.put("median_load_ms", Math.round(warm[warm.length / 2] * 10) / 10.0);
    out.put("checkpoint_write_ms", Math.round(checkpointMs * 10) / 10.0);
    if (commits == TARGET_COMMITS) {
      out.put("target_median_load_ms", TARGET_LOAD_MS);
      out.put("pass", warm[warm.length / 2] < TARGET_LOAD_MS);
    }
    return out;
  }
}
