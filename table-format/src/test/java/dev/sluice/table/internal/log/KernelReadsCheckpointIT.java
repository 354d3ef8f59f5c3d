package dev.sluice.table.internal.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.actions.SetTransaction;
import dev.sluice.table.internal.replay.SnapshotState;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.types.StructField;
import io.delta.kernel.utils.CloseableIterator;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Delta Kernel, an independent reader, reconstructs a table from a checkpoint Sluice wrote. */
class KernelReadsCheckpointIT {
  @TempDir
  Path tmp;

  @Test
  void kernelReadsOurCheckpointWhenEarlierCommitsAreGone() throws Exception {
    TestLog t = new TestLog(tmp).create(TestLog.add("f0"));
    long now = System.currentTimeMillis();
    for (long v = 1; v <= 12; v++) {
      Action[] actions = v % 4 == 0
          ? new Action[] {TestLog.add("f" + v), TestLog.add("f" + (v - 1)).toRemove(now, true),
              new SetTransaction("app", v, now)}
          : new Action[] {TestLog.add("f" + v)};
      t.commit(v, actions);
      if (v == 10) {
        t.log.checkpoint(t.log.snapshot());
      }
    }
    for (int v = 0; v < 10; v++) {
      t.delete(String.format("%020d.json", v));
    }
    SnapshotState ours = t.log.snapshot();

    Configuration conf = new Configuration();
    conf.set("hadoop.tmp.dir", System.getProperty("java.io.tmpdir"));
    Engine engine = DefaultEngine.create(conf);
    Snapshot snapshot = Table.forPath(engine, tmp.resolve("tables/t").toString()).getLatestSnapshot(engine);

    assertThat(snapshot.getVersion()).isEqualTo(12);
    assertThat(snapshot.getSchema().fields()).extracting(StructField::getName).containsExactly("id", "day");
    assertThat(countScanFiles(engine, snapshot)).isEqualTo(ours.activeFiles().size()).isEqualTo(13 - 3);
    assertThat(ours.segment().checkpointVersion()).hasValue(10);
  }

  private static long countScanFiles(Engine engine, Snapshot snapshot) throws Exception {
    long n = 0;
    try (CloseableIterator<FilteredColumnarBatch> batches = snapshot.getScanBuilder().build().getScanFiles(engine)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> rows = batches.next().getRows()) {
          while (rows.hasNext()) {
            rows.next();
            n++;
          }
        }
      }
    }
    return n;
  }
}
