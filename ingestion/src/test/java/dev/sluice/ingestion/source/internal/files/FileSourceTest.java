package dev.sluice.ingestion.source.internal.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.ingestion.source.internal.TestContexts;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSourceTest {
  static final StructType SCHEMA = StructType.empty().add("id", PrimitiveType.LONG);
  static final long T0 = 1_700_000_000_000L;

  @TempDir Path tmp;
  Path in;

  @BeforeEach
  void setUp() throws IOException {
    in = Files.createDirectories(tmp.resolve("in"));
  }

  FileSource source(Map<String, String> options) {
    return source(options, FileSourceProvider.COMPACT_INTERVAL);
  }

  FileSource source(Map<String, String> options, int compactInterval) {
    Map<String, String> all = new HashMap<>(options);
    all.put("format", "json");
    return (FileSource) new FileSourceProvider().create("files", TestContexts.context(tmp, all, FileFormatsTest.declaringCorrupt(SCHEMA), in), compactInterval);
  }

  Path write(String name, long modified, long... ids) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (long id : ids) {
      sb.append("{\"id\":").append(id).append("}\n");
    }
    Path file = in.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, sb.toString());
    Files.setLastModifiedTime(file, FileTime.fromMillis(modified));
    return file;
  }

  static String key(Path p) {
    return p.toString().substring(1);
  }

  static SourceOffset offset(long n) {
    return new SourceOffset("{\"logOffset\":" + n + "}");
  }

  List<String> names(FileSource s, Optional<SourceOffset> start, SourceOffset end) {
    return s.files(start, end).stream().map(k -> k.substring(key(in).length() + 1)).toList();
  }

  @Test
  void discoversFilesOldestFirstThenByPathAndSkipsHiddenNames() throws IOException {
    write("c.json", T0 + 2000, 3);
    write("b.json", T0 + 1000, 2);
    write("a.json", T0 + 1000, 1);
    write("_temporary.json", T0, 9);
    write(".partial.json", T0, 9);
    write("_logs/0", T0, 9); // (_spark_metadata is a file sink's log: FileSinkTest covers it)
    write("day=1/d.json", T0 + 1500, 4);
    FileSource s = source(Map.of("maxFilesPerTrigger", "1"));
    Optional<SourceOffset> start = Optional.empty();
    StringBuilder order = new StringBuilder();
    for (Optional<SourceOffset> end = s.latestOffset(start, ReadLimit.ALL); end.isPresent();
        start = end, end = s.latestOffset(start, ReadLimit.ALL)) {
      order.append(names(s, start, end.get())).append(' ');
    }
    assertThat(order.toString().trim()).isEqualTo("[a.json] [b.json] [day=1/d.json] [c.json]");
    assertThat(start).contains(offset(3));
  }

  @Test
  void readsTheRowsOfABatchsFiles() throws IOException {
    write("a.json", T0, 1, 2);
    write("b.json", T0 + 1, 3);
    FileSource s = source(Map.of());
    SourceOffset end = s.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    assertThat(end.json()).isEqualTo("{\"logOffset\":0}");
    Batch batch = s.getBatch(Optional.empty(), end);
    assertThat(batch.schema().fieldNames()).containsExactly("id", "_corrupt_record", "_corrupt_error");
    assertThat(batch.rows()).containsExactly(Row.of(1L, null, null), Row.of(2L, null, null), Row.of(3L, null, null));
    assertThat(s.latestOffset(Optional.of(end), ReadLimit.ALL)).isEmpty();
  }

  @Test
  void takesAtMostTheSmallerOfTheOptionAndTheRunnersFileLimit() throws IOException {
    for (int i = 0; i < 5; i++) {
      write("f" + i + ".json", T0 + i, i);
    }
    FileSource s = source(Map.of("maxFilesPerTrigger", "3"));
    SourceOffset first = s.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    assertThat(names(s, Optional.empty(), first)).containsExactly("f0.json", "f1.json", "f2.json");
    SourceOffset second = s.latestOffset(Optional.of(first), new ReadLimit(1, Long.MAX_VALUE, Long.MAX_VALUE)).orElseThrow();
    assertThat(names(s, Optional.of(first), second)).containsExactly("f3.json");
  }

  @Test
  void byteLimitStopsBeforeTheFileThatWouldExceedItButAlwaysTakesOne() throws IOException {
    write("a.json", T0, 1);           // 9 bytes
    write("b.json", T0 + 1, 2);       // 9 bytes
    write("c.json", T0 + 2, 3, 4, 5); // 27 bytes
    write("d.json", T0 + 3, 6);
    FileSource s = source(Map.of("maxBytesPerTrigger", "20"));
    SourceOffset o0 = s.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    SourceOffset o1 = s.latestOffset(Optional.of(o0), ReadLimit.ALL).orElseThrow();
    SourceOffset o2 = s.latestOffset(Optional.of(o1), new ReadLimit(Long.MAX_VALUE, 5, Long.MAX_VALUE)).orElseThrow();
    assertThat(names(s, Optional.empty(), o0)).containsExactly("a.json", "b.json");
    assertThat(names(s, Optional.of(o0), o1)).containsExactly("c.json");
    assertThat(names(s, Optional.of(o1), o2)).containsExactly("d.json");
  }

  @Test
  void aRestartedSourceReturnsTheLoggedBatchesAndContinuesAfterThem() throws IOException {
    write("a.json", T0, 1);
    write("b.json", T0 + 1, 2);
    FileSource before = source(Map.of("maxFilesPerTrigger", "1"));
    SourceOffset o0 = before.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    SourceOffset o1 = before.latestOffset(Optional.of(o0), ReadLimit.ALL).orElseThrow();
    Batch b1 = before.getBatch(Optional.of(o0), o1);
    // Logged, but the runner crashed before writing it to its offsets log:
    write("c.json", T0 + 2, 3);
    SourceOffset orphan = before.latestOffset(Optional.of(o1), ReadLimit.ALL).orElseThrow();
    write("0-early.json", T0 - 5, 0); // arrives after the crash, sorts first

    FileSource after = source(Map.of("maxFilesPerTrigger", "5"));
    assertThat(after.getBatch(Optional.of(o0), o1)).isEqualTo(b1);
    assertThat(after.getBatch(Optional.empty(), o0).rows()).containsExactly(Row.of(1L, null, null));
    SourceOffset replayed = after.latestOffset(Optional.of(o1), ReadLimit.ALL).orElseThrow();
    assertThat(replayed).isEqualTo(orphan);
    assertThat(names(after, Optional.of(o1), replayed)).containsExactly("c.json");
    SourceOffset next = after.latestOffset(Optional.of(replayed), ReadLimit.ALL).orElseThrow();
    assertThat(names(after, Optional.of(replayed), next)).containsExactly("0-early.json");
    assertThat(after.latestOffset(Optional.of(next), ReadLimit.ALL)).isEmpty();
  }

  @Test
  void anOffsetBeyondTheLogIsRefused() throws IOException {
    FileSource s = source(Map.of());
    assertThatThrownBy(() -> s.latestOffset(Optional.of(offset(4)), ReadLimit.ALL))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("asks for files source log entry 4 but the source's log in its checkpoint folder ends at -1");
    assertThatThrownBy(() -> s.getBatch(Optional.empty(), offset(0)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("has no entry 0 (newest: -1)");
  }

  @Test
  void compactionKeepsUncommittedAndYoungEntriesAndDeletesObsoleteLogFiles() throws IOException {
    Map<String, String> options = Map.of("maxFilesPerTrigger", "1", "maxFileAge", "10s");
    FileSource s = source(options, 3);
    Optional<SourceOffset> start = Optional.empty();
    for (int i = 0; i < 7; i++) {
      write("f" + i + ".json", T0 + i * 60_000L, i); // a minute apart: older entries outlive maxFileAge
      SourceOffset end = s.latestOffset(start, ReadLimit.ALL).orElseThrow();
      if (i != 4) {
        s.commit(end); // batch 4 stays uncommitted when the log is compacted at id 5
      }
      start = Optional.of(end);
    }
    Path log = tmp.resolve("ckpt/sources/0");
    try (Stream<Path> files = Files.list(log)) {
      assertThat(files.map(p -> p.getFileName().toString()).sorted()).containsExactly("5.compact", "6");
    }
    String compact = Files.readString(log.resolve("5.compact"));
    assertThat(compact).contains("f4.json", "f5.json").doesNotContain("f3.json", "f0.json");

    FileSource restarted = source(options, 3);
    assertThat(restarted.getBatch(Optional.of(offset(3)), offset(4)).rows()).containsExactly(Row.of(4L, null, null));
    assertThat(restarted.getBatch(Optional.of(offset(5)), offset(6)).rows()).containsExactly(Row.of(6L, null, null));
    assertThatThrownBy(() -> restarted.getBatch(Optional.of(offset(1)), offset(2)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("has no entry 2 (newest: 6)")
        .hasMessageContaining("compacted away after its batch was committed");
    assertThat(restarted.latestOffset(Optional.of(offset(6)), ReadLimit.ALL)).isEmpty();
  }

  @Test
  void filesOlderThanMaxFileAgeBeforeTheNewestSeenAreIgnored() throws IOException {
    write("new.json", T0, 1);
    FileSource s = source(Map.of("maxFileAge", "1h"));
    SourceOffset o0 = s.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    write("stale.json", T0 - 2 * 3_600_000L, 2);
    write("recent.json", T0 - 1_800_000L, 3);
    SourceOffset o1 = s.latestOffset(Optional.of(o0), ReadLimit.ALL).orElseThrow();
    assertThat(names(s, Optional.of(o0), o1)).containsExactly("recent.json");
    assertThat(s.latestOffset(Optional.of(o1), ReadLimit.ALL)).isEmpty();
  }

  @Test
  void availableNowTakesOnlyTheFilesPresentWhenPrepared() throws IOException {
    write("a.json", T0, 1);
    write("b.json", T0 + 1, 2);
    FileSource s = source(Map.of("maxFilesPerTrigger", "1"));
    s.prepareForAvailableNow();
    write("c.json", T0 + 2, 3);
    SourceOffset o0 = s.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    SourceOffset o1 = s.latestOffset(Optional.of(o0), ReadLimit.ALL).orElseThrow();
    assertThat(s.latestOffset(Optional.of(o1), ReadLimit.ALL)).isEmpty();
    assertThat(names(s, Optional.empty(), o1)).containsExactly("a.json", "b.json");
  }

  @Test
  void cleanSourceDeleteRemovesFilesOnlyAfterCommit() throws IOException {
    Path a = write("a.json", T0, 1);
    Path b = write("b.json", T0 + 1, 2);
    FileSource s = source(Map.of("cleanSource", "delete", "maxFilesPerTrigger", "1"));
    SourceOffset o0 = s.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    SourceOffset o1 = s.latestOffset(Optional.of(o0), ReadLimit.ALL).orElseThrow();
    s.getBatch(Optional.empty(), o0);
    assertThat(a).exists();
    s.commit(o0);
    assertThat(a).doesNotExist();
    assertThat(b).exists();
    s.commit(o1);
    assertThat(b).doesNotExist();
  }

  @Test
  void cleanSourceArchiveMovesFilesUnderTheirRelativePath() throws IOException {
    Path a = write("day=1/a.json", T0, 1);
    Path archive = tmp.resolve("archive");
    FileSource s = source(Map.of("cleanSource", "archive", "sourceArchiveDir", archive.toString()));
    SourceOffset o0 = s.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    assertThat(a).exists();
    s.commit(o0);
    assertThat(a).doesNotExist();
    assertThat(archive.resolve("day=1/a.json")).hasContent("{\"id\":1}");
  }

  @Test
  void anArchiveFolderInsideTheSourceFolderIsRefusedUnlessHidden() {
    assertThatThrownBy(() -> source(Map.of("cleanSource", "archive", "sourceArchiveDir", in.resolve("done").toString())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Option sourceArchiveDir file:" + in.resolve("done") + " overlaps the source folder");
    FileSource s = source(Map.of("cleanSource", "archive", "sourceArchiveDir", in.resolve("_archive").toString()));
    assertThat(s.description()).isEqualTo("FileSource[json, file:" + in + "]");
    assertThatThrownBy(() -> source(Map.of("cleanSource", "archive")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cleanSource=archive of the files source needs option 'sourceArchiveDir'");
  }

  @Test
  void aMissingFolderIsNamed() {
    Path missing = tmp.resolve("nowhere");
    assertThatThrownBy(() -> new FileSourceProvider().create("json",
        TestContexts.context(tmp, Map.of(), SCHEMA, missing)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Input folder " + missing + " of the files source does not exist (or is not a folder): create it,"
            + " or fix the source's path");
  }

  @Test
  void logFilesAreWrittenOncePerId() throws IOException {
    write("a.json", T0, 1);
    FileSource s = source(Map.of());
    s.latestOffset(Optional.empty(), ReadLimit.ALL);
    String content = Files.readString(tmp.resolve("ckpt/sources/0/0"), StandardCharsets.UTF_8);
    assertThat(content).startsWith("v1\n{\"batchId\":0,\"path\":\"" + key(in.resolve("a.json")) + "\",\"size\":9,");
  }
}
