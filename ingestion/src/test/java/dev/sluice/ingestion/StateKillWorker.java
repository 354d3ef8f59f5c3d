package dev.sluice.ingestion;

import dev.sluice.ingestion.state.StateStoreSettings;
import dev.sluice.ingestion.state.StateStoreType;
import dev.sluice.table.storage.ForwardingObjectStore;
import dev.sluice.table.storage.ObjectStore;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Child process of {@link RocksDbKillIT}: one availableNow run of a stateful query on the RocksDB store whose object
 * store stops, once, at the {@code n}-th write of the chosen kind and says so on standard output, so that the parent
 * kills it with SIGKILL right there: {@code changelog} (the state commit: before the changelog is written),
 * {@code sst} (a snapshot upload: after the first bytes of an SST file), {@code zip} (a snapshot upload: every SST
 * written, the zip not yet), or {@code none}. Args: dir, query (aggregation|dedup), kind, n.
 */
public final class StateKillWorker {
  private StateKillWorker() {}

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    String query = args[1];
    String kind = args[2];
    int n = Integer.parseInt(args[3]);
    AtomicInteger seen = new AtomicInteger();
    StateStoreSettings settings = StateStoreSettings.of(StateStoreType.ROCKSDB).withLocalDir(dir.resolve("local"))
        .withSnapshotInterval(2).withRocksDbMemoryBytes(16 << 20);
    try (SluiceSession session = SluiceSession.builder().stateStore(settings)
        .wrapStores(store -> new Pausing(store, kind, n, seen)).build()) {
      StreamFrame events = session.readStream().format("json").schema(EventStreams.SCHEMA)
          .option("maxFilesPerTrigger", "1").load(dir.resolve("landing").toString())
          .withWatermark("ts", EventStreams.DELAY);
      StreamFrame frame = query.equals("dedup") ? events.dropDuplicatesWithinWatermark("key")
          : events.groupBy("window(ts, '1 minute')", "key").agg(EventStreams.AGGREGATES);
      frame.writeStream().queryName("killed").option("runnerLeaseTimeout", "300 ms")
          .option("lateRowsTable", dir.resolve("late").toString())
          .trigger(Trigger.availableNow()).toTable(dir.resolve("out").toString())
          .awaitTermination();
    }
    System.out.println("DONE");
  }

  /** Pauses (for the parent's SIGKILL) at the n-th write of its kind. */
  private static final class Pausing extends ForwardingObjectStore {
    private final String kind;
    private final int n;
    private final AtomicInteger seen;

    Pausing(ObjectStore delegate, String kind, int n, AtomicInteger seen) {
      super(delegate);
      this.kind = kind;
      this.n = n;
      this.seen = seen;
    }

    private void pauseIf(String what, String key) {
      if (what.equals(kind) && seen.incrementAndGet() == n) {
        System.out.println("PAUSED " + what + " " + key);
        System.out.flush();
        try {
          Thread.sleep(120_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }

    @Override
    public void overwrite(String key, byte[] data) {
      if (key.endsWith(".changelog")) {
        pauseIf("changelog", key);
      } else if (key.endsWith(".zip")) {
        pauseIf("zip", key);
      }
      super.overwrite(key, data);
    }

    @Override
    public OutputStream newOutputStream(String key) {
      OutputStream out = super.newOutputStream(key);
      if (!key.endsWith(".sst")) {
        return out;
      }
      return new FilterOutputStream(out) {
        private boolean paused;

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          out.write(b, off, len);
          if (!paused) {
            paused = true;
            out.flush();
            pauseIf("sst", key);
          }
        }
      };
    }
  }
}
