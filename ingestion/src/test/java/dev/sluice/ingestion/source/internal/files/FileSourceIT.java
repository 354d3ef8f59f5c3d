package dev.sluice.ingestion.source.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.SourceContext;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.table.data.Row;
import dev.sluice.table.internal.parquet.ParquetDataWriter;
import dev.sluice.table.internal.parquet.ParquetWriteOptions;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.storage.S3ObjectStore;
import dev.sluice.table.testing.S3ProxyServer;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The files source over S3 (S3Proxy): discovery, the compacted log, restarts, archiving and Parquet. */
class FileSourceIT {
  static final StructType SCHEMA = StructType.empty().add("id", PrimitiveType.LONG);
  static S3ProxyServer server;
  S3ObjectStore store;

  @BeforeAll
  static void startServer() {
    server = S3ProxyServer.start();
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @BeforeEach
  void openStore() {
    store = server.newStore("it-" + UUID.randomUUID());
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  SourceContext context(Map<String, String> options, StructType schema) {
    return new SourceContext(options, Optional.ofNullable(schema), Optional.of("landing/orders"),
        new Location(store, "ckpt/sources/0"), path -> new Location(store, path), Clock.systemUTC());
  }

  FileSource source(Map<String, String> options) {
    return (FileSource) new FileSourceProvider().create("json", context(options, FileFormatsTest.declaringCorrupt(SCHEMA)), 3);
  }

  void put(String name, long id) {
    store.create("landing/orders/" + name, ("{\"id\":" + id + "}\n").getBytes(StandardCharsets.UTF_8));
  }

  List<String> keys(String prefix) {
    List<String> out = new ArrayList<>();
    store.list(prefix).forEachRemaining(s -> out.add(s.key()));
    return out;
  }

  @Test
  void streamsNewObjectsAcrossRestartsAndArchivesCommittedOnes() {
    Map<String, String> options = Map.of("maxFilesPerTrigger", "1", "cleanSource", "archive", "sourceArchiveDir", "archive");
    FileSource first = source(options);
    assertThat(first.latestOffset(Optional.empty(), ReadLimit.ALL)).isEmpty(); // an empty prefix is fine on S3
    put("a.json", 1);
    put("b.json", 2);
    put("_temporary/c.json", 9);
    Optional<SourceOffset> start = Optional.empty();
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      SourceOffset end = first.latestOffset(start, ReadLimit.ALL).orElseThrow();
      rows.addAll(first.getBatch(start, end).rows());
      first.commit(end);
      start = Optional.of(end);
    }
    assertThat(rows).containsExactly(Row.of(1L, null, null), Row.of(2L, null, null));
    assertThat(keys("archive/")).containsExactly("archive/a.json", "archive/b.json");
    assertThat(keys("landing/")).containsExactly("landing/orders/_temporary/c.json");

    for (int i = 3; i <= 6; i++) {
      put("f" + i + ".json", i);
    }
    FileSource restarted = source(options);
    for (int i = 3; i <= 6; i++) {
      SourceOffset end = restarted.latestOffset(start, ReadLimit.ALL).orElseThrow();
      assertThat(restarted.getBatch(start, end).rows()).containsExactly(Row.of((long) i, null, null));
      restarted.commit(end);
      start = Optional.of(end);
    }
    assertThat(start).contains(new SourceOffset("{\"logOffset\":5}"));
    assertThat(keys("ckpt/sources/0/")).containsExactly("ckpt/sources/0/5.compact");
    assertThat(source(options).latestOffset(start, ReadLimit.ALL)).isEmpty();
  }

  @Test
  void readsParquetObjectsWithTheSchemaOfTheFirst() {
    StructType schema = StructType.empty().add("id", PrimitiveType.LONG).add("name", PrimitiveType.STRING);
    ParquetDataWriter.write(store, "landing/orders/p0.parquet", schema,
        List.of(Row.of(1L, "a"), Row.of(2L, "b")).iterator(), ParquetWriteOptions.defaults());
    var source = new FileSourceProvider().create("parquet", context(Map.of("includeSourceColumn", "true"), null));
    assertThat(source.schema().fieldNames()).containsExactly("id", "name", "_source", "_corrupt_record", "_corrupt_error");
    SourceOffset end = source.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow();
    String uri = store.uriOf("landing/orders/p0.parquet").toString();
    assertThat(source.getBatch(Optional.empty(), end).rows())
        .containsExactly(Row.of(1L, "a", uri, null, null), Row.of(2L, "b", uri, null, null));
    assertThat(keys("ckpt/sources/0/")).contains("ckpt/sources/0/schema");
    assertThat(store.status("landing/orders/p0.parquet")).map(ObjectStatus::size).isPresent();
  }
}
