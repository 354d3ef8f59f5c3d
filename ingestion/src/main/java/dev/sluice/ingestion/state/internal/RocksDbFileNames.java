package dev.sluice.ingestion.state.internal;

import java.util.UUID;

/**
 * Names of the RocksDB provider's objects in a state partition folder. Example: {@code 12.changelog} (the puts
 * and removes of version 12, in the {@code .delta} encoding), {@code 20.zip} (the manifest of the snapshot of
 * version 20: which SST files make it, plus RocksDB's small metadata files), {@code SSTs/000042-<uuid>.sst}
 * (an SST file shared by every snapshot that lists it).
 */
final class RocksDbFileNames {
  static final String CHANGELOG = ".changelog";
  static final String ZIP = ".zip";
  static final String SST_FOLDER = "SSTs";
  static final String MANIFEST_ENTRY = "sluice-manifest.json";

  private RocksDbFileNames() {}

  static String changelog(long version) {
    return version + CHANGELOG;
  }

  static String zip(long version) {
    return version + ZIP;
  }

  /** A fresh object name for a local SST file: a re-run never overwrites a file an older snapshot lists. */
  static String sst(String localName) {
    String stem = localName.endsWith(".sst") ? localName.substring(0, localName.length() - 4) : localName;
    return SST_FOLDER + "/" + stem + "-" + UUID.randomUUID() + ".sst";
  }
}
