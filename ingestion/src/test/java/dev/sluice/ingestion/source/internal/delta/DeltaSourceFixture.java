package dev.sluice.ingestion.source.internal.delta;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceContext;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.log.DeltaLog;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A small table of (id, name) rows and helpers that drive a delta source the way the runner does. */
final class DeltaSourceFixture {
  static final StructType SCHEMA = StructType.of(
      StructField.of("id", PrimitiveType.LONG, false), StructField.of("name", PrimitiveType.STRING));

  final ObjectStore store;
  final String key;
  final Table table;

  DeltaSourceFixture(ObjectStore store, String key) {
    this.store = store;
    this.key = key;
    this.table = Table.forPath(store, key);
  }

  static Row row(long id) {
    return Row.of(id, "n" + id);
  }

  static List<Row> rows(long from, long to) {
    List<Row> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(row(i));
    }
    return out;
  }

  /** Appends ids [from, to) in one commit, one data file per row when {@code filePerRow}. */
  long append(long from, long to, boolean filePerRow) {
    var append = table.newAppend().rows(rows(from, to));
    if (filePerRow) {
      append.targetFileSize(1);
    }
    return append.commit().version();
  }

  long append(long from, long to) {
    return append(from, to, false);
  }

  Source source(Map<String, String> options) {
    SourceContext context = new SourceContext(options, Optional.empty(), Optional.of(key),
        new Location(store, "_checkpoints/q/sources/0"), path -> new Location(store, path), Clock.systemUTC());
    return new DeltaSourceProvider().create("delta", context);
  }

  /** One planned batch: its offsets and rows. */
  record Planned(Optional<SourceOffset> start, SourceOffset end, Batch batch) {
    List<Long> ids() {
      return batch.rows().stream().map(r -> (Long) r.get(0)).toList();
    }
  }

  /** Plans and reads batches from {@code start} until the source has nothing new. */
  static List<Planned> drain(Source source, Optional<SourceOffset> start, ReadLimit limit) {
    List<Planned> out = new ArrayList<>();
    Optional<SourceOffset> current = start;
    for (Optional<SourceOffset> end = source.latestOffset(current, limit); end.isPresent();
        end = source.latestOffset(current, limit)) {
      out.add(new Planned(current, end.get(), source.getBatch(current, end.get())));
      current = end;
      if (out.size() > 1000) {
        throw new AssertionError("the source never ran dry");
      }
    }
    return out;
  }

  static List<Long> ids(List<Planned> batches) {
    return batches.stream().flatMap(b -> b.ids().stream()).toList();
  }

  /**
   * Commits what OPTIMIZE commits: one live file rewritten under a new name, both actions with
   * {@code dataChange=false}; returns the version.
   */
  long compactOneFile() {
    TableContext context = new TableContext(new DeltaLog(store, key));
    SnapshotState state = context.log().snapshot();
    AddFile old = state.activeFiles().values().iterator().next();
    String newPath = "compacted-" + state.version() + ".parquet";
    String newKey = key + "/" + newPath;
    store.create(newKey, store.read(context.keyOf(old.path())));
    OptimisticTransaction txn = context.newTransaction(state);
    txn.remove(old.toRemove(System.currentTimeMillis(), false /* dataChange */));
    txn.add(new AddFile(newPath, old.partitionValues(), old.size(), System.currentTimeMillis(), false /* dataChange */,
        old.stats(), null, null), newKey);
    return txn.commit("OPTIMIZE", Map.of(), Map.of());
  }

  /** Commits a new schema (as ALTER TABLE would); returns the version. */
  long changeSchema(StructType schema) {
    TableContext context = new TableContext(new DeltaLog(store, key));
    SnapshotState state = context.log().snapshot();
    Metadata m = state.metadata();
    OptimisticTransaction txn = context.newTransaction(state);
    txn.updateMetadata(new Metadata(m.id(), m.name(), m.description(), m.formatProvider(), m.formatOptions(),
        schema.toJson(), m.partitionColumns(), m.configuration(), m.createdTime()));
    return txn.commit("CHANGE COLUMN", Map.of(), Map.of());
  }
}
