package dev.sluice.table.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.MergeCondition;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.testing.S3ProxyServer;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Delta Kernel 4.0.0 reads what Sluice wrote and sees exactly the rows Sluice's own reader sees. */
class KernelInteropIT {
  static final StructType ALL_TYPES = StructType.of(
      StructField.of("id", PrimitiveType.LONG, false),
      StructField.of("s", PrimitiveType.STRING),
      StructField.of("i", PrimitiveType.INTEGER),
      StructField.of("sh", PrimitiveType.SHORT),
      StructField.of("b", PrimitiveType.BYTE),
      StructField.of("d", PrimitiveType.DOUBLE),
      StructField.of("f", PrimitiveType.FLOAT),
      StructField.of("bool", PrimitiveType.BOOLEAN),
      StructField.of("bin", PrimitiveType.BINARY),
      StructField.of("day", PrimitiveType.DATE),
      StructField.of("ts", PrimitiveType.TIMESTAMP),
      StructField.of("dec", DecimalType.of(12, 3)),
      StructField.of("tags", new ArrayType(PrimitiveType.STRING, true)),
      StructField.of("attrs", new MapType(PrimitiveType.STRING, PrimitiveType.LONG, true)),
      StructField.of("addr", StructType.of(StructField.of("city", PrimitiveType.STRING), StructField.of("zip", PrimitiveType.INTEGER))));

  @TempDir Path dir;

  static Row allTypes(long i) {
    if (i % 10 == 9) {
      Object[] nulls = new Object[ALL_TYPES.size()];
      nulls[0] = i;
      return Row.of(nulls);
    }
    Map<String, Long> attrs = new LinkedHashMap<>();
    attrs.put("k" + i, i * 10);
    return Row.of(i, "s" + i, (int) i, (short) i, (byte) i, i / 4.0, (float) i / 2, i % 2 == 0,
        new byte[] {(byte) i, 7}, LocalDate.of(2026, 1, 1).plusDays(i), Instant.parse("2026-11-30T10:00:00.123456Z").plusSeconds(i),
        new BigDecimal(i + ".125"), List.of("a" + i, "b"), attrs, Row.of("city" + i, (int) i * 3));
  }

  static List<Row> allTypes(long from, long to) {
    List<Row> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(allTypes(i));
    }
    return out;
  }

  /** Sluice's rows in KernelReader's normalised form (structs as lists, binaries as hex), sorted. */
  static List<List<Object>> sluiceRows(Table table) {
    List<List<Object>> out = new ArrayList<>();
    try (CloseableIterator<Row> it = table.latestSnapshot().scan().build().rows()) {
      while (it.hasNext()) {
        out.add(normalise(it.next()));
      }
    }
    return KernelReader.sorted(out);
  }

  static List<List<Object>> kernelRows(String path, org.apache.hadoop.conf.Configuration conf) {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> r : KernelReader.readRows(path, conf)) {
      out.add(normaliseList(r));
    }
    return KernelReader.sorted(out);
  }

  private static List<Object> normalise(Row r) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < r.size(); i++) {
      out.add(value(r.get(i)));
    }
    return out;
  }

  private static List<Object> normaliseList(List<?> r) {
    List<Object> out = new ArrayList<>();
    for (Object v : r) {
      out.add(value(v));
    }
    return out;
  }

  private static Object value(Object v) {
    if (v instanceof Row row) {
      return normalise(row);
    }
    if (v instanceof byte[] bytes) {
      return HexFormat.of().formatHex(bytes);
    }
    if (v instanceof List<?> list) {
      return normaliseList(list);
    }
    if (v instanceof BigDecimal d) {
      return d.stripTrailingZeros();
    }
    if (v instanceof Map<?, ?> map) {
      Map<Object, Object> out = new java.util.TreeMap<>();
      map.forEach((k, x) -> out.put(value(k), value(x)));
      return out;
    }
    return v;
  }

  private void assertKernelSeesSluiceRows(Table table, Path tableDir, int expectedRows) {
    List<List<Object>> ours = sluiceRows(table);
    assertThat(ours).hasSize(expectedRows);
    String path = tableDir.toString();
    assertThat(KernelReader.latestVersion(path, KernelReader.localConf())).isEqualTo(table.latestVersion().getAsLong());
    assertThat(kernelRows(path, KernelReader.localConf())).isEqualTo(ours);
  }

  @Test
  void plainTableWithEveryType() {
    Table table = Table.forPath(new LocalObjectStore(dir), "plain");
    table.create(ALL_TYPES).commit();
    table.newAppend().rows(allTypes(0, 40)).commit();
    table.newAppend().rows(allTypes(40, 50)).codec("zstd").commit();
    assertKernelSeesSluiceRows(table, dir.resolve("plain"), 50);
  }

  @Test
  void oneAppendRolledOverIntoManyFilesAtASmallTargetSize() {
    Table table = Table.forPath(new LocalObjectStore(dir), "rolled");
    table.create(ALL_TYPES).commit();
    table.newAppend().rows(allTypes(0, 6_000)).targetFileSize(32 << 10).commit();
    assertThat(table.latestSnapshot().files()).hasSizeGreaterThan(3);
    assertKernelSeesSluiceRows(table, dir.resolve("rolled"), 6_000);
  }

  @Test
  void partitionedTableWithSpecialCharacters() {
    StructType schema = StructType.of(StructField.of("id", PrimitiveType.LONG), StructField.of("region", PrimitiveType.STRING),
        StructField.of("day", PrimitiveType.DATE), StructField.of("at", PrimitiveType.TIMESTAMP));
    Table table = Table.forPath(new LocalObjectStore(dir), "parts");
    table.create(schema).partitionBy("region", "day", "at").commit();
    String[] regions = {"eu-west", "a b:c/d%e=f", "ümlaut#1", null};
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      rows.add(Row.of((long) i, regions[i % 4], i % 5 == 0 ? null : LocalDate.of(2026, 11, 1 + i % 3),
          Instant.parse("2026-11-30T10:11:12.5Z").plusSeconds(i % 2)));
    }
    table.newAppend().rows(rows).commit();
    assertKernelSeesSluiceRows(table, dir.resolve("parts"), 40);
  }

  @Test
  void twentyFiveCommitsWithCheckpoints() {
    Table table = Table.forPath(new LocalObjectStore(dir), "many");
    table.create(ALL_TYPES).commit();
    for (int c = 0; c < 25; c++) {
      table.newAppend().rows(allTypes(c * 4L, c * 4L + 4)).commit();
    }
    assertThat(dir.resolve("many/_delta_log/00000000000000000020.checkpoint.parquet")).exists();
    assertKernelSeesSluiceRows(table, dir.resolve("many"), 100);
    // Kernel must also manage without the commits the checkpoint replaces.
    for (int v = 0; v <= 19; v++) {
      dir.resolve(String.format("many/_delta_log/%020d.json", v)).toFile().delete();
    }
    assertThat(kernelRows(dir.resolve("many").toString(), KernelReader.localConf())).hasSize(100);
  }

  @Test
  void afterMergeAndDeleteWithChangeDataFeed() {
    Table table = Table.forPath(new LocalObjectStore(dir), "merged");
    table.create(ALL_TYPES).enableChangeDataFeed().commit();
    table.newAppend().rows(allTypes(0, 30)).commit();
    List<Row> updates = new ArrayList<>();
    for (long i = 25; i < 35; i++) {
      Object[] v = allTypes(i).toArray();
      v[1] = "updated" + i;
      updates.add(Row.of(v));
    }
    table.newMerge().source(ALL_TYPES, updates).on("id").whenMatchedUpdate().whenNotMatchedInsert().commit();
    table.newDelete().where(Predicate.lt("id", 5L)).commit();
    table.newMerge().source(ALL_TYPES, List.of(allTypes(7))).on("id")
        .whenMatchedDelete(MergeCondition.always(), "true").commit();
    assertKernelSeesSluiceRows(table, dir.resolve("merged"), 29);
  }

  @Test
  void afterDeletesAndMergesWrittenAsDeletionVectors() {
    Table table = Table.forPath(new LocalObjectStore(dir), "dvs");
    table.create(ALL_TYPES).property("delta.enableDeletionVectors", "true").enableChangeDataFeed().commit();
    table.newAppend().rows(allTypes(0, 40)).commit();
    table.newAppend().rows(allTypes(40, 60)).commit();
    List<Row> updates = new ArrayList<>();
    for (long i = 35; i < 45; i++) {
      Object[] v = allTypes(i).toArray();
      v[1] = "updated" + i;
      updates.add(Row.of(v));
    }
    table.newMerge().source(ALL_TYPES, updates).on("id").whenMatchedUpdate().whenNotMatchedInsert().commit();
    table.newDelete().where(Predicate.lt("id", 5L)).commit();
    table.newDelete().where(Predicate.eq("id", 50L)).commit();
    table.newMerge().source(ALL_TYPES, List.of(allTypes(7), allTypes(38))).on("id")
        .whenMatchedDelete(MergeCondition.always(), "true").commit();
    table.checkpoint();
    table.newDelete().where(Predicate.eq("id", 20L)).commit();
    assertThat(table.latestSnapshot().minReaderVersion()).isEqualTo(3);
    assertKernelSeesSluiceRows(table, dir.resolve("dvs"), 60 - 5 - 1 - 2 - 1);
  }

  @Test
  void aPartitionedTableWithDeletionVectors() {
    StructType schema = StructType.of(StructField.of("id", PrimitiveType.LONG, false),
        StructField.of("p", PrimitiveType.STRING));
    Table table = Table.forPath(new LocalObjectStore(dir), "pdv");
    table.create(schema).partitionBy("p").property("delta.enableDeletionVectors", "true").commit();
    List<Row> rows = new ArrayList<>();
    for (long i = 0; i < 30; i++) {
      rows.add(Row.of(i, "p" + (i % 3)));
    }
    table.newAppend().rows(rows).commit();
    table.newDelete().where(Predicate.in("id", List.of(1L, 2L, 3L, 4L))).commit();
    assertKernelSeesSluiceRows(table, dir.resolve("pdv"), 26);
  }

  @Test
  void kernelReadsATableSluiceWroteToS3ThroughS3A() {
    try (S3ProxyServer s3 = S3ProxyServer.start()) {
      Table table = Table.forPath(s3.newStore("warehouse"), "gold/orders");
      table.create(ALL_TYPES).partitionBy("b").commit();
      table.newAppend().rows(allTypes(0, 30)).commit();
      table.newDelete().where(Predicate.eq("id", 3L)).commit();
      List<List<Object>> ours = sluiceRows(table);
      assertThat(ours).hasSize(29);
      String path = "s3a://" + s3.bucket() + "/warehouse/gold/orders";
      var conf = KernelReader.s3aConf(s3.endpoint().toString(), s3.accessKey(), s3.secretKey());
      assertThat(kernelRows(path, conf)).isEqualTo(ours);
    }
  }
}
