package dev.sluice.ingestion.state.internal;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStoreType;
import dev.sluice.table.data.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * What the state reader needs from a partition folder without a provider: the state versions its files can
 * rebuild, and the changes each version made. Both providers write a version's changes in the {@code .delta}
 * encoding ({@code <v>.delta} in memory, {@code <v>.changelog} for RocksDB), so one reader serves both.
 */
public final class StateHistory {
  /** One change: the key, and its new value (null when the key was removed). */
  public record Change(Row key, Row value) {}

  /** The state versions that can be rebuilt: from {@code earliest} (0 = from the start) to {@code latest}. */
  public record Versions(long earliest, long latest) {}

  private final StateFiles files;
  private final StateStoreType type;
  private final StructCodec keys;
  private final StructCodec values;

  public StateHistory(Location partition, StateSchema schema, StateStoreType type) {
    this.keys = new StructCodec(schema.keySchema(), "key");
    this.values = new StructCodec(schema.valueSchema(), "value");
    this.files = new StateFiles(partition, keys, values, InMemoryStateStoreProvider.DEFAULT_COMPRESSION);
    this.type = type;
  }

  private StateFileListing list() {
    return type == StateStoreType.ROCKSDB ? files.list(RocksDbFileNames.CHANGELOG, RocksDbFileNames.ZIP)
        : files.list();
  }

  /** A delta's record of one key: its new value, or null when removed. */
  private record KeyChange(byte[] key, byte[] value) {}

  /** A delta's record of an eviction: every entry whose time in the value is at most {@code upToMicros} went. */
  private record Eviction(int column, long upToMicros) {}

  /** Empty when no version was ever committed. */
  public java.util.Optional<Versions> versions() {
    StateFileListing listing = list();
    if (listing.deltas().isEmpty()) {
      return java.util.Optional.empty();
    }
    long latest = listing.deltas().last();
    // Deltas e+1..latest all exist; below e one is missing (or e is 0): a snapshot at or after e must start the chain.
    long e = latest;
    while (e >= 1 && listing.deltas().contains(e)) {
      e--;
    }
    Long snapshot = e == 0 ? Long.valueOf(0) : listing.snapshots().ceiling(e);
    long earliest = snapshot == null || snapshot > latest ? latest : snapshot;
    return java.util.Optional.of(new Versions(earliest, latest));
  }

  /** The versions whose changes are still in storage (those after the last purge). */
  public java.util.NavigableSet<Long> changeVersions() {
    return list().deltas();
  }

  /**
   * The changes version {@code version} made, in order.
   *
   * @throws IllegalStateException naming the file when it was purged or can't be read
   */
  public List<Change> changes(long version) {
    String name = type == StateStoreType.ROCKSDB ? RocksDbFileNames.changelog(version) : StateFileNames.delta(version);
    StateRowCodec codec = new StateRowCodec(keys, values);
    List<Change> out = new ArrayList<>();
    if (!list().deltas().contains(version)) {
      throw new IllegalStateException("The changes of state version " + version + " are not in " + files.folder()
          + " (" + files.uri(name) + " is missing: purged by minBatchesToRetain, or never written); read a batch range"
          + " within the one `--metadata` lists");
    }
    List<Object> records = new ArrayList<>();
    files.read(name, StateFileFormat.DELTA, new StateFileFormat.Visitor() {
      @Override
      public void put(byte[] key, byte[] value) {
        records.add(new KeyChange(key, value));
      }

      @Override
      public void remove(byte[] key) {
        records.add(new KeyChange(key, null));
      }

      @Override
      public void removeUpTo(int column, long upToMicros) {
        records.add(new Eviction(column, upToMicros));
      }
    });
    // An eviction's range record names no key: the state before the version says which entries it removed.
    BytesMap state = records.stream().anyMatch(Eviction.class::isInstance)
        ? InMemoryStateStoreProvider.rebuild(files, keys, values, version - 1).map() : null;
    for (Object r : records) {
      if (r instanceof Eviction e) {
        InMemoryStateStoreProvider.removeUpToIn(state, codec, e.column(), e.upToMicros(),
            slot -> out.add(new Change(codec.decodeKey(state.keyAt(slot)), null)));
        continue;
      }
      byte[] key = ((KeyChange) r).key();
      byte[] value = ((KeyChange) r).value();
      out.add(new Change(codec.decodeKey(key), value == null ? null : codec.decodeValue(value)));
      if (state != null) {
        if (value == null) {
          state.remove(key);
        } else {
          state.put(key, value);
        }
      }
    }
    return out;
  }
}
