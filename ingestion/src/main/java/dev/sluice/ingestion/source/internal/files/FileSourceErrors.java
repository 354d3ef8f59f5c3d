package dev.sluice.ingestion.source.internal.files;

import java.util.List;

/** The messages of the files source and of static files about input files it cannot read: problem, cause, fix. */
final class FileSourceErrors {
  private FileSourceErrors() {}

  static IllegalStateException missingFile(String uri, Throwable cause) {
    return new IllegalStateException("Input file " + uri + " was taken by a batch of this query but deleted before it"
        + " was read (it does not exist any more). The batch is recorded in the query's checkpoint and must read the"
        + " same files on every run, so the query cannot go on without it. Restore the file, or set option"
        + " ignoreMissingFiles=true (in YAML: source.options.ignoreMissingFiles: true) to skip missing files; skipped"
        + " files are logged and counted as numMissingFilesSkipped in the query's progress", cause);
  }

  static IllegalArgumentException missingStaticPath(String what, String location) {
    return new IllegalArgumentException("The static side of the join, " + what + ", cannot be read: " + location
        + " does not exist (no file and no folder at that path). A missing dimension would silently join every row"
        + " as unmatched. Create it, or fix the join's path");
  }

  static IllegalArgumentException unsupportedCompression(String uri, String extension) {
    return new IllegalArgumentException("Input file " + uri + " is compressed with ." + extension + ", which the files"
        + " source cannot decompress (it reads " + String.join(", ", Compression.SUPPORTED) + " by extension)."
        + " Recompress it with gzip or zstd, or land it uncompressed");
  }

  static IllegalStateException unreadableCompressed(String uri, String extension, Exception cause) {
    return new IllegalStateException("Input file " + uri + " ends with ." + extension + " but could not be"
        + " decompressed: " + cause.getMessage() + ". It is truncated or not ." + extension + " data: replace it with a"
        + " complete file, or rename it if it is not compressed", cause);
  }

  static String invalidUtf8(int byteInLine, long byteInFile) {
    return "not valid UTF-8 at byte offset " + byteInLine + " of the line (byte offset " + byteInFile
        + " of the file); the line's exact bytes are kept in base64 after the '" + TextLines.BASE64_PREFIX
        + "' prefix";
  }

  static String changedAfterRead(String uri, FileEntry taken, FileEntry now) {
    return "Input file " + uri + " changed after it was taken (size " + taken.size() + " -> " + now.size()
        + " bytes, modified " + java.time.Instant.ofEpochMilli(taken.modificationTime()) + " -> "
        + java.time.Instant.ofEpochMilli(now.modificationTime()) + "): a file is read once, so what was added or"
        + " changed is NOT ingested. Writers must finish a file before it is older than fileSettleTime, or write it"
        + " elsewhere and move it into the folder; to ingest the new content, land it as a new file";
  }

  static String stillSettling(List<String> uris, long settleMs) {
    return "Input files " + uris + " were still being written (modified less than fileSettleTime=" + settleMs
        + "ms ago) and are left for a later run";
  }
}
