package dev.sluice.ingestion.source.internal.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.ingestion.source.internal.TestContexts;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the files source does with input files that are incomplete, changed, gone, unreadable or not UTF-8. */
class BadInputFilesTest {
  static final StructType ID = StructType.empty().add("id", PrimitiveType.LONG);
  static final StructType ID_AND_CORRUPT = FileFormatsTest.declaringCorrupt(ID);
  static final long OLD = 1_700_000_000_000L;

  @TempDir Path tmp;
  Path in;

  @BeforeEach
  void setUp() throws IOException {
    in = Files.createDirectories(tmp.resolve("in"));
  }

  FileSource source(StructType schema, Map<String, String> options) {
    Map<String, String> all = new HashMap<>(options);
    all.put("format", "json");
    return (FileSource) new FileSourceProvider().create("files", TestContexts.context(tmp, all, schema, in));
  }

  Path write(String name, byte[] content, long modified) throws IOException {
    Path file = in.resolve(name);
    Files.write(file, content);
    Files.setLastModifiedTime(file, FileTime.fromMillis(modified));
    return file;
  }

  Path write(String name, String content, long modified) throws IOException {
    return write(name, content.getBytes(StandardCharsets.UTF_8), modified);
  }

  static Batch all(FileSource s) {
    SourceOffset end = s.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    return s.getBatch(Optional.empty(), end);
  }

  @Test
  void aFileStillBeingWrittenIsNotTakenUntilItSettles() throws IOException {
    Path file = write("a.json", "{\"id\":1}\n{\"id\":", System.currentTimeMillis());
    FileSource s = source(ID_AND_CORRUPT, Map.of("fileSettleTime", "1h"));
    assertThat(s.latestOffset(Optional.empty(), ReadLimit.ALL)).isEmpty();
    assertThat(s.awaitingData()).isTrue();

    Files.writeString(file, "2}\n", StandardOpenOption.APPEND);
    Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
    assertThat(all(s).rows()).containsExactly(Row.of(1L, null, null), Row.of(2L, null, null));
    assertThat(s.awaitingData()).isFalse();
  }

  @Test
  void availableNowWaitsForAFileLandedJustNow() throws IOException {
    write("a.json", "{\"id\":1}\n", System.currentTimeMillis());
    FileSource s = source(ID_AND_CORRUPT, Map.of("fileSettleTime", "300ms"));
    long started = System.nanoTime();
    s.prepareForAvailableNow();
    assertThat(all(s).rows()).containsExactly(Row.of(1L, null, null));
    assertThat((System.nanoTime() - started) / 1_000_000).isGreaterThanOrEqualTo(200);
  }

  @Test
  void aTakenFileThatChangesLaterIsReportedOnce() throws IOException {
    Path file = write("a.json", "{\"id\":1}\n", OLD);
    FileSource s = source(ID_AND_CORRUPT, Map.of());
    SourceOffset first = s.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    assertThat(s.metrics()).isEmpty();

    Files.writeString(file, "{\"id\":2}\n", StandardOpenOption.APPEND);
    Files.setLastModifiedTime(file, FileTime.fromMillis(OLD + 1000));
    assertThat(s.latestOffset(Optional.of(first), ReadLimit.ALL)).isEmpty();
    assertThat(s.latestOffset(Optional.of(first), ReadLimit.ALL)).isEmpty();
    assertThat(s.metrics()).containsExactly(Map.entry(FileSourceMetrics.FILES_CHANGED_AFTER_READ, 1L));
    assertThat(s.metrics()).isEmpty();
  }

  @Test
  void aTakenFileDeletedBeforeItIsReadFailsSayingWhatToDo() throws IOException {
    Path file = write("a.json", "{\"id\":1}\n", OLD);
    FileSource s = source(ID_AND_CORRUPT, Map.of());
    SourceOffset end = s.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    Files.delete(file);
    assertThatThrownBy(() -> s.getBatch(Optional.empty(), end))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Input file file:" + file + " was taken by a batch of this query but deleted before"
            + " it was read (it does not exist any more).")
        .hasMessageContaining("Restore the file, or set option ignoreMissingFiles=true (in YAML:"
            + " source.options.ignoreMissingFiles: true)");
  }

  @Test
  void ignoreMissingFilesSkipsCountsAndReadsTheRest() throws IOException {
    Path gone = write("a.json", "{\"id\":1}\n", OLD);
    write("b.json", "{\"id\":2}\n", OLD + 1);
    FileSource s = source(ID_AND_CORRUPT, Map.of("ignoreMissingFiles", "true"));
    SourceOffset end = s.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    Files.delete(gone);
    assertThat(s.getBatch(Optional.empty(), end).rows()).containsExactly(Row.of(2L, null, null));
    assertThat(s.metrics()).containsExactly(Map.entry(FileSourceMetrics.MISSING_FILES_SKIPPED, 1L));
  }

  @Test
  void anUnreadableFileSaysPermissionDenied() throws IOException {
    Path file = write("a.json", "{\"id\":1}\n", OLD);
    FileSource s = source(ID_AND_CORRUPT, Map.of());
    SourceOffset end = s.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
    // root reads any file: there is then nothing to deny (the message itself is checked in LocalObjectStoreTest)
    assumeThat(Files.isReadable(file)).as("running as a user that chmod 000 blocks").isFalse();
    assertThatThrownBy(() -> s.getBatch(Optional.empty(), end))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("file:" + file)
        .hasMessageContaining("permission denied");
  }

  @Test
  void compressedFilesAreDecompressedByExtensionOrRefusedByName() throws IOException {
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write("{\"id\":1}\n{\"id\":2}\n".getBytes(StandardCharsets.UTF_8));
    }
    write("a.json.gz", gz.toByteArray(), OLD);
    assertThat(all(source(ID_AND_CORRUPT, Map.of())).rows()).containsExactly(Row.of(1L, null, null), Row.of(2L, null, null));

    Path snappy = write("b.json.snappy", "whatever", OLD + 1);
    FileSource s = source(ID_AND_CORRUPT, Map.of());
    s.getBatch(Optional.empty(), s.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow());
    SourceOffset second = s.latestOffset(Optional.of(new SourceOffset("{\"logOffset\":0}")), ReadLimit.ALL)
        .orElseThrow();
    assertThatThrownBy(() -> s.getBatch(Optional.of(new SourceOffset("{\"logOffset\":0}")), second))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Input file file:" + snappy + " is compressed with .snappy, which the files source cannot"
            + " decompress (it reads .gz, .bz2, .zst, .zip by extension). Recompress it with gzip or zstd, or land it"
            + " uncompressed");
  }

  @Test
  void invalidUtf8LinesAreCorruptWithTheirExactBytes() throws IOException {
    byte[] bad = {'{', '"', 'i', 'd', '"', ':', '2', (byte) 0xFF, '}'};
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    content.write("{\"id\":1}\n".getBytes(StandardCharsets.UTF_8));
    content.write(bad);
    content.write("\n{\"id\":3}\n".getBytes(StandardCharsets.UTF_8));
    write("a.json", content.toByteArray(), OLD);
    FileSource s = source(ID_AND_CORRUPT, Map.of());
    assertThat(all(s).rows()).containsExactly(Row.of(1L, null, null),
        Row.of(null, "base64:" + Base64.getEncoder().encodeToString(bad), "line 2: not valid UTF-8 at byte offset 7"
            + " of the line (byte offset 16 of the file); the line's exact bytes are kept in base64 after the"
            + " 'base64:' prefix"),
        Row.of(3L, null, null));
    assertThat(s.metrics()).containsEntry(FileSourceMetrics.INVALID_UTF8_LINES, 1L)
        .containsEntry(FileSourceMetrics.MALFORMED_RECORDS, 1L);
  }

  @Test
  void aDeclaredSchemaGetsOnlyTheCorruptColumnsItDeclares() throws IOException {
    write("a.json", "{\"id\":1}\n{\"id\":\n", OLD);
    FileSource plain = source(ID, Map.of());
    Batch batch = all(plain);
    assertThat(batch.schema().fieldNames()).containsExactly("id");
    assertThat(batch.rows()).containsExactly(Row.of(1L), Row.of((Object) null));
    assertThat(plain.metrics()).containsEntry(FileSourceMetrics.MALFORMED_RECORDS, 1L)
        .containsEntry(FileSourceMetrics.MALFORMED_NOT_KEPT, 1L);

    Files.writeString(in.resolve("a.json"), "{\"id\":1}\n{\"id\":\n");
    Files.setLastModifiedTime(in.resolve("a.json"), FileTime.fromMillis(OLD));
    StructType bad = StructType.empty().add("bad", PrimitiveType.STRING).add("id", PrimitiveType.LONG);
    Path other = Files.createDirectories(tmp.resolve("other"));
    FileSource named = (FileSource) new FileSourceProvider().create("json", TestContexts.context(other,
        Map.of("columnNameOfCorruptRecord", "bad"), bad, in));
    Batch kept = all(named);
    assertThat(kept.schema().fieldNames()).containsExactly("bad", "id");
    assertThat(kept.rows()).containsExactly(Row.of(null, 1L), Row.of("{\"id\":", null));
    assertThat(named.metrics()).doesNotContainKey(FileSourceMetrics.MALFORMED_NOT_KEPT);
  }
}
