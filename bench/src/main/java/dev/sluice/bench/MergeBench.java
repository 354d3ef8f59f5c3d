package dev.sluice.bench;

import dev.sluice.table.CommitResult;
import dev.sluice.table.MergeCondition;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * MERGE of 1 % updates into a table of N rows written as 20 appends of consecutive orders. "recent"
 * updates touch the newest 20,000 orders (as the orders stream does); "uniform" ones any order.
 * Figures: wall time and the fraction of files rewritten.
 */
final class MergeBench {
  private MergeBench() {}

  static Map<String, Object> run(Path dir, int rows, boolean recent) {
    Table table = Table.forPath(new LocalObjectStore(dir), "");
    table.create(OrdersData.SCHEMA).commit();
    Random random = new Random(7);
    int batches = 20;
    int perBatch = rows / batches;
    for (int b = 0; b < batches; b++) {
      List<Row> batch = new ArrayList<>(perBatch);
      for (int i = b * perBatch; i < (b + 1) * perBatch; i++) {
        batch.add(OrdersData.order(i, random, 0));
      }
      table.newAppend().rows(batch).commit();
    }
    int filesBefore = table.latestSnapshot().files().size();
    int updates = rows / 100;
    List<Row> source = new ArrayList<>(updates);
    java.util.Set<Long> picked = new java.util.HashSet<>();
    while (source.size() < updates) {
      long id = recent ? rows - 1 - random.nextInt(Math.min(rows, 20_000)) : random.nextInt(rows);
      if (picked.add(id)) {
        source.add(OrdersData.order(id, random, 1));
      }
    }
    long t0 = System.nanoTime();
    CommitResult r = table.newMerge().source(OrdersData.SCHEMA, source).on("id")
        .whenMatchedUpdate(MergeCondition.sourceGreaterThanTarget("updated_at"), "source.updated_at > target.updated_at")
        .whenNotMatchedInsert().commit();
    double seconds = (System.nanoTime() - t0) / 1e9;
    Map<String, Object> out = Json.object();
    out.put("benchmark", "merge_1pct_updates");
    out.put("distribution", recent ? "recent" : "uniform");
    out.put("table_rows", rows);
    out.put("source_rows", updates);
    out.put("wall_s", Math.round(seconds * 1000) / 1000.0);
    out.put("files_before", filesBefore);
    out.put("files_rewritten", r.metric("numTargetFilesRemoved"));
    out.put("fraction_files_rewritten", Math.round(1000.0 * r.metric("numTargetFilesRemoved") / filesBefore) / 1000.0);
    out.put("rows_updated", r.metric("numTargetRowsUpdated"));
    out.put("rows_copied", r.metric("numTargetRowsCopied"));
    return out;
  }
}
