package dev.sluice.ingestion.state.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.ingestion.Location;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Uploads and downloads the snapshots of a RocksDB store (as Spark's {@code RocksDBFileManager}). A snapshot is a
 * RocksDB checkpoint (a folder of hard links): its SST files go to {@code SSTs/} under fresh names, each once
 * for as long as snapshots list it (files are immutable, so a file already uploaded with the same local name and
 * size is reused); the small files (CURRENT, MANIFEST, OPTIONS) and a manifest listing the SSTs go into
 * {@code <version>.zip}, written last with one atomic put: a snapshot whose upload was torn has no zip, so no
 * reader sees it, and purge later deletes its orphaned SSTs.
 */
final class RocksDbSnapshots {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What a snapshot holds: the version, its key count, and its SST files. */
  record Manifest(long version, long numKeys, List<SstFile> sstFiles) {}

  /** A local SST file name and the object it was uploaded as. */
  record SstFile(String localName, String object, long bytes) {}

  /** What one upload did, for metrics. */
  record Upload(int filesCopied, int filesReused, long bytesCopied, long zipBytes) {}

  private final Location folder;
  /** Local SST name + size → uploaded object, for the snapshots this run loaded or wrote. */
  private final Map<String, SstFile> uploaded = new HashMap<>();

  RocksDbSnapshots(Location folder) {
    this.folder = folder;
  }

  /** Uploads the checkpoint folder {@code dir} as the snapshot of {@code version}. */
  Upload upload(Path dir, long version, long numKeys) throws IOException {
    List<SstFile> ssts = new ArrayList<>();
    List<Path> small = new ArrayList<>();
    int copied = 0;
    int reused = 0;
    long bytes = 0;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.sorted().toList()) {
        String name = file.getFileName().toString();
        if (!name.endsWith(".sst")) {
          small.add(file);
          continue;
        }
        long size = Files.size(file);
        SstFile known = uploaded.get(name + "/" + size);
        if (known == null) {
          known = new SstFile(name, RocksDbFileNames.sst(name), size);
          try (OutputStream out = folder.store().newOutputStream(key(known.object()))) {
            Files.copy(file, out);
          }
          uploaded.put(name + "/" + size, known);
          copied++;
          bytes += size;
        } else {
          reused++;
        }
        ssts.add(known);
      }
    }
    byte[] zip = zip(new Manifest(version, numKeys, ssts), small);
    // Last, and atomically: only now does the snapshot exist for readers.
    folder.store().overwrite(key(RocksDbFileNames.zip(version)), zip);
    return new Upload(copied, reused, bytes, zip.length);
  }

  private static byte[] zip(Manifest manifest, List<Path> small) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      zip.putNextEntry(new ZipEntry(RocksDbFileNames.MANIFEST_ENTRY));
      zip.write(JSON.writeValueAsBytes(manifest));
      zip.closeEntry();
      for (Path file : small) {
        zip.putNextEntry(new ZipEntry(file.getFileName().toString()));
        Files.copy(file, zip);
        zip.closeEntry();
      }
    }
    return bytes.toByteArray();
  }

  /** Reads the manifest of {@code version}'s snapshot without downloading its files. */
  Manifest manifest(long version) {
    try (ZipInputStream zip = new ZipInputStream(open(RocksDbFileNames.zip(version)))) {
      for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
        if (e.getName().equals(RocksDbFileNames.MANIFEST_ENTRY)) {
          return JSON.readValue(zip.readAllBytes(), Manifest.class);
        }
      }
      throw new IOException("it has no " + RocksDbFileNames.MANIFEST_ENTRY);
    } catch (IOException e) {
      throw StateErrors.corruptFile(folder.resolve(RocksDbFileNames.zip(version)).toString(), e);
    }
  }

  /** Downloads {@code version}'s snapshot into the empty folder {@code dir}; returns its manifest. */
  Manifest download(long version, Path dir) {
    Manifest manifest = null;
    String zipName = RocksDbFileNames.zip(version);
    try (ZipInputStream zip = new ZipInputStream(open(zipName))) {
      for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
        if (e.getName().equals(RocksDbFileNames.MANIFEST_ENTRY)) {
          manifest = JSON.readValue(zip.readAllBytes(), Manifest.class);
        } else {
          Files.copy(zip, dir.resolve(Path.of(e.getName()).getFileName().toString()));
        }
      }
    } catch (IOException e) {
      throw StateErrors.corruptFile(folder.resolve(zipName).toString(), e);
    }
    if (manifest == null) {
      throw StateErrors.corruptFile(folder.resolve(zipName).toString(),
          new IOException("it has no " + RocksDbFileNames.MANIFEST_ENTRY));
    }
    for (SstFile sst : manifest.sstFiles()) {
      try (InputStream in = open(sst.object())) {
        Files.copy(in, dir.resolve(sst.localName()));
      } catch (IOException e) {
        throw new UncheckedIOException("Downloading " + folder.resolve(sst.object()) + " failed: " + e.getMessage(), e);
      }
      uploaded.put(sst.localName() + "/" + sst.bytes(), sst);
    }
    return manifest;
  }

  /** Forgets the uploads of snapshots this run no longer builds on (after loading an older version). */
  void forget() {
    uploaded.clear();
  }

  /** Forgets uploaded objects that were deleted, so that no later snapshot lists them. */
  void forgetObjects(Set<String> objects) {
    uploaded.values().removeIf(f -> objects.contains(f.object()));
  }

  private InputStream open(String name) {
    try {
      return folder.store().open(key(name));
    } catch (ObjectNotFoundException e) {
      throw StateErrors.missingFile(folder.resolve(name).toString(), e);
    }
  }

  private String key(String name) {
    return folder.resolve(name).key();
  }
}
