package dev.sluice.ingestion.state.internal;

import dev.sluice.ingestion.Location;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.storage.ObjectStatus;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.OptionalLong;
import java.util.TreeSet;

/** The delta and snapshot files of one state partition folder, read and written through its object store. */
final class StateFiles {
  private final Location folder;
  private final StructCodec keys;
  private final StructCodec values;
  private final Compression compression;

  StateFiles(Location folder, StructCodec keys, StructCodec values, Compression compression) {
    this.folder = folder;
    this.keys = keys;
    this.values = values;
    this.compression = compression;
  }

  Location folder() {
    return folder;
  }

  /** The state files directly in the folder; other objects are ignored. */
  StateFileListing list() {
    return list(StateFileNames.DELTA, StateFileNames.SNAPSHOT);
  }

  /** The versions of the files directly in the folder named {@code <version><deltaSuffix>} and {@code <version><snapshotSuffix>}. */
  StateFileListing list(String deltaSuffix, String snapshotSuffix) {
    String prefix = folder.key().isEmpty() ? "" : folder.key() + "/";
    TreeSet<Long> deltas = new TreeSet<>();
    TreeSet<Long> snapshots = new TreeSet<>();
    try (CloseableIterator<ObjectStatus> it = folder.store().list(prefix)) {
      while (it.hasNext()) {
        String name = it.next().key().substring(prefix.length());
        if (name.indexOf('/') < 0) {
          StateFileNames.versionOf(name, deltaSuffix).ifPresent(deltas::add);
          StateFileNames.versionOf(name, snapshotSuffix).ifPresent(snapshots::add);
        }
      }
    }
    return new StateFileListing(deltas, snapshots);
  }

  StateFileFormat.Writer newDelta() {
    return new StateFileFormat.Writer(StateFileFormat.DELTA, compression, keys, values);
  }

  StateFileFormat.Writer newSnapshot() {
    return new StateFileFormat.Writer(StateFileFormat.SNAPSHOT, compression, keys, values);
  }

  /** Writes or atomically replaces the file (a re-run version replaces its earlier attempt). */
  void write(String name, StateFileContent content) {
    content.writeTo(folder.store(), key(name));
  }

  void deleteAll(Collection<String> names) {
    folder.store().deleteAll(names.stream().map(this::key).toList());
  }

  /**
   * @throws IllegalStateException when the file is missing or unreadable as a state file
   */
  void read(String name, byte kind, StateFileFormat.Visitor visitor) {
    try (InputStream in = folder.store().open(key(name))) {
      StateFileFormat.read(in, kind, keys, values, visitor);
    } catch (ObjectNotFoundException e) {
      throw StateErrors.missingFile(uri(name), e);
    } catch (IOException e) {
      throw StateErrors.corruptFile(uri(name), e);
    }
  }

  String uri(String name) {
    return folder.resolve(name).toString();
  }

  /** The version of a file name, for names this class wrote. */
  static OptionalLong versionOf(String name) {
    OptionalLong v = StateFileNames.versionOf(name, StateFileNames.DELTA);
    return v.isPresent() ? v : StateFileNames.versionOf(name, StateFileNames.SNAPSHOT);
  }

  private String key(String name) {
    return folder.resolve(name).key();
  }
}
