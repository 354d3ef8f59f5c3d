package dev.sluice.table.internal.log;

import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.actions.ActionParser;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.actions.CommitInfo;
import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.actions.Protocol;
import dev.sluice.table.storage.LocalObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** A small log written through the serializer into a temporary folder. */
final class TestLog {
  static final String SCHEMA = "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,"
      + "\"metadata\":{}},{\"name\":\"day\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}}]}";

  final LocalObjectStore store;
  final DeltaLog log;

  TestLog(Path root) {
    this(root, "tables/t");
  }

  TestLog(Path root, String tablePath) {
    this.store = new LocalObjectStore(root);
    this.log = new DeltaLog(store, tablePath);
  }

  static Metadata metadata(Map<String, String> configuration) {
    return new Metadata("table-id", null, null, null, null, SCHEMA, List.of("day"), configuration, 1L);
  }

  static AddFile add(String name) {
    return AddFile.of("day=1/" + name + ".parquet", Map.of("day", "1"), 100, 1000, "{\"numRecords\":1}");
  }

  static CommitInfo info(String operation) {
    return new CommitInfo(1L, operation, Map.of(), null, null, false, null, "sluice-test", null, null, null);
  }

  /** Version 0 with protocol (1,2), metadata and the given extra actions. */
  TestLog create(Action... actions) {
    List<Action> all = new ArrayList<>(List.of(info("CREATE TABLE"), Protocol.of(1, 2), metadata(Map.of())));
    all.addAll(Arrays.asList(actions));
    return commit(0, all.toArray(Action[]::new));
  }

  TestLog commit(long version, Action... actions) {
    store.create(FileNames.deltaFile(log.logPath(), version), ActionParser.serializeCommit(Arrays.asList(actions)));
    return this;
  }

  TestLog mtime(long version, long millis) {
    try {
      Files.setLastModifiedTime(store.pathOf(FileNames.deltaFile(log.logPath(), version)), FileTime.fromMillis(millis));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  void delete(String name) {
    store.delete(log.logPath() + "/" + name);
  }

  void write(String name, String content) {
    store.overwrite(log.logPath() + "/" + name, content.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
