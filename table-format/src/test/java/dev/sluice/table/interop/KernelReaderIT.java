package dev.sluice.table.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Proves {@link KernelReader} on Spark-written golden tables read from the local file system. */
class KernelReaderIT {
  private static final Configuration CONF = KernelReader.localConf();

  private static String table(String name) {
    return GoldenTables.path(name).toString();
  }

  /** The snapshot-data tables: commit c writes rows (i, "data-c-i"), i from 0 to 9 (to 19 in commit 3). */
  private static List<List<Object>> snapshotDataRows(int... commits) {
    List<List<Object>> rows = new ArrayList<>();
    for (int commit : commits) {
      for (int i = 0; i < (commit == 3 ? 20 : 10); i++) {
        rows.add(List.of(i, "data-" + commit + "-" + i));
      }
    }
    return KernelReader.sorted(rows);
  }

  static Stream<Arguments> snapshotTables() {
    // append, append, overwrite, append
    return Stream.of(
        Arguments.of("snapshot-data0", 0L, new int[] {0}),
        Arguments.of("snapshot-data1", 1L, new int[] {0, 1}),
        Arguments.of("snapshot-data2", 2L, new int[] {2}),
        Arguments.of("snapshot-data3", 3L, new int[] {2, 3}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("snapshotTables")
  void readsAppendsAndOverwrites(String name, long version, int[] liveCommits) {
    String path = table(name);

    assertThat(KernelReader.latestVersion(path, CONF)).isEqualTo(version);
    assertThat(KernelReader.columnNames(path, CONF)).containsExactly("col1", "col2");
    assertThat(KernelReader.sorted(KernelReader.readRows(path, CONF))).isEqualTo(snapshotDataRows(liveCommits));
  }

  @Test
  void timeTravelsToEachVersion() {
    String path = table("snapshot-data3");

    assertThat(KernelReader.sorted(KernelReader.readRowsAt(path, CONF, 0))).isEqualTo(snapshotDataRows(0));
    assertThat(KernelReader.sorted(KernelReader.readRowsAt(path, CONF, 1))).isEqualTo(snapshotDataRows(0, 1));
    assertThat(KernelReader.sorted(KernelReader.readRowsAt(path, CONF, 2))).isEqualTo(snapshotDataRows(2));
    assertThat(KernelReader.sorted(KernelReader.readRowsAt(path, CONF, 3))).isEqualTo(snapshotDataRows(2, 3));
  }

  @Test
  void mapsEveryPrimitiveTypeToSluiceJavaValues() {
    String path = table("data-reader-primitives");
    List<List<Object>> expected = new ArrayList<>();
    expected.add(Arrays.asList(new Object[10]));
    for (int i = 0; i < 10; i++) {
      expected.add(List.of(i, (long) i, (byte) i, (short) i, i % 2 == 0, (float) i, (double) i,
          String.valueOf(i), new byte[] {(byte) i, (byte) i}, BigDecimal.valueOf(i)));
    }

    List<List<Object>> rows = KernelReader.sorted(KernelReader.readRows(path, CONF));

    assertThat(KernelReader.columnNames(path, CONF)).containsExactly("as_int", "as_long", "as_byte", "as_short",
        "as_boolean", "as_float", "as_double", "as_string", "as_binary", "as_big_decimal");
    // byte[] has identity equality: the recursive comparison compares arrays by content.
    assertThat(rows).usingRecursiveComparison().isEqualTo(expected);
  }

  @Test
  void addsPartitionValuesAndReadsNestedColumns() {
    String path = table("data-reader-partition-values");
    List<List<Object>> expected = new ArrayList<>();
    List<Object> nullPartitions = Arrays.asList(new Object[12]);
    expected.add(concat(nullPartitions, nested(2)));
    for (int i = 0; i < 2; i++) {
      List<Object> partitions = List.of(i, (long) i, (byte) i, (short) i, i % 2 == 0, (float) i, (double) i,
          String.valueOf(i), "null" /* a literal string, not a null */, LocalDate.of(2021, 9, 8),
          Instant.parse("2021-09-08T11:11:11Z"), BigDecimal.valueOf(i));
      expected.add(concat(partitions, nested(i)));
    }

    List<List<Object>> rows = KernelReader.sorted(KernelReader.readRows(path, CONF));

    assertThat(KernelReader.columnNames(path, CONF)).endsWith("as_list_of_records", "as_nested_struct", "value");
    assertThat(rows).usingRecursiveComparison().isEqualTo(expected);
  }

  private static List<Object> nested(int i) {
    List<Object> record = List.of(i);
    List<Object> nestedStruct = List.of(String.valueOf(i), String.valueOf(i), List.of(i, (long) i));
    return List.of(List.of(record, record, record), nestedStruct, String.valueOf(i));
  }

  private static List<Object> concat(List<Object> a, List<Object> b) {
    List<Object> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  @Test
  void replaysDeletesOnTopOfACheckpoint() {
    String path = table("basic-with-inserts-deletes-checkpoint");

    // v0-v4 append ids 0-49 in tens; v5-v9 delete 5-9, 15-19, ..., 45-49; v10 is the checkpoint.
    assertThat(KernelReader.sorted(KernelReader.readRowsAt(path, CONF, 4))).isEqualTo(ids(LongStream.range(0, 50)));
    assertThat(KernelReader.sorted(KernelReader.readRowsAt(path, CONF, 9)))
        .isEqualTo(ids(LongStream.range(0, 50).filter(id -> id % 10 < 5)));
    // v10-v12 append ids 50-79; v13 deletes id >= 66.
    assertThat(KernelReader.latestVersion(path, CONF)).isEqualTo(13);
    assertThat(KernelReader.sorted(KernelReader.readRows(path, CONF)))
        .isEqualTo(ids(LongStream.concat(LongStream.range(0, 50).filter(id -> id % 10 < 5), LongStream.range(50, 66))));
  }

  @Test
  void readsAMultiPartCheckpoint() {
    String path = table("multi-part-checkpoint");

    // v0 writes id 0; v1 appends ids 0-29 in nine files; the two-part checkpoint is at v1.
    assertThat(KernelReader.latestVersion(path, CONF)).isEqualTo(1);
    assertThat(KernelReader.readRowsAt(path, CONF, 0)).isEqualTo(ids(LongStream.of(0)));
    assertThat(KernelReader.sorted(KernelReader.readRows(path, CONF)))
        .isEqualTo(ids(LongStream.concat(LongStream.of(0), LongStream.range(0, 30))));
  }

  private static List<List<Object>> ids(LongStream ids) {
    return KernelReader.sorted(ids.<List<Object>>mapToObj(List::of).toList());
  }

  @Test
  void refusesATypeSluiceHasNoJavaMappingFor() {
    String path = table("data-reader-timestamp_ntz");

    assertThatThrownBy(() -> KernelReader.readRows(path, CONF))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timestamp_ntz")
        .hasMessageContaining("has no Java mapping in Sluice");
  }
}
