package dev.sluice.orchestration.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice optimize} and {@code sluice vacuum} on a table given by path. */
class MaintenanceCommandsTest {
  @TempDir Path dir;
  Path root;
  Table table;

  private record Result(int exitCode, String out, String err) {}

  private Result sluice(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = SluiceCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), false);
    return new Result(code, out.toString(), err.toString());
  }

  @BeforeEach
  void fourSmallAppends() {
    root = dir.resolve("silver/events");
    table = Table.forUri(root.toUri(), Map.of());
    table.create(StructType.of(StructField.of("id", PrimitiveType.LONG), StructField.of("day", PrimitiveType.STRING),
        StructField.of("x", PrimitiveType.LONG))).partitionBy("day").commit();
    for (long i = 0; i < 4; i++) {
      table.newAppend().rows(List.of(Row.of(i, "d1", i * 3), Row.of(i + 100, "d2", i))).commit();
    }
  }

  private long rows() {
    try (CloseableIterator<Row> it = Table.forUri(root.toUri(), Map.of()).latestSnapshot().scan().build().rows()) {
      return it.toList().size();
    }
  }

  private long parquetFiles() throws Exception {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(p -> p.toString().endsWith(".parquet") && !p.toString().contains("_delta_log")).count();
    }
  }

  @Test
  void optimizeCompactsThePartitionsTheConditionSelectsThenFindsNothingToDo() {
    Result r = sluice("optimize", root.toString(), "--where", "day = 'd1'", "--zorder-by", "id,x",
        "--target-file-size", "64MB");

    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("Optimized " + root + " in version 5: 4 files", "into 1 (", "in 1 partition.");
    assertThat(Table.forUri(root.toUri(), Map.of()).history(1).get(0).operationParameters())
        .containsEntry("zOrderBy", "[\"id\",\"x\"]");
    assertThat(rows()).isEqualTo(8);

    Result again = sluice("optimize", root.toString(), "--where", "day = 'd1'", "--zorder-by", "id,x");
    assertThat(again.out()).contains("Nothing to optimize in " + root + " version 5");
  }

  @Test
  void optimizeRefusesBothOrderingsAndABadSize() {
    Result both = sluice("optimize", root.toString(), "--zorder-by", "x", "--cluster-by", "x");
    assertThat(both.exitCode()).isEqualTo(2);
    assertThat(both.err()).contains("mutually exclusive");

    Result size = sluice("optimize", root.toString(), "--target-file-size", "big");
    assertThat(size.exitCode()).isEqualTo(2);
    assertThat(size.err()).contains("--target-file-size big is not a positive size", "128MB");
  }

  @Test
  void vacuumRefusesAShortRetentionWithoutForceThenListsAndDeletesWithIt() throws Exception {
    sluice("optimize", root.toString());
    assertThat(parquetFiles()).isEqualTo(10);

    Result refused = sluice("vacuum", root.toString(), "--retain", "0h");
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.err()).contains("delta.deletedFileRetentionDuration (168h)", "--force").doesNotContain("\tat ");

    Result dry = sluice("vacuum", root.toString(), "--retain", "0h", "--force", "--dry-run");
    assertThat(dry.exitCode()).as(dry.toString()).isZero();
    assertThat(dry.out()).contains("day=d1/part-", "Dry run: 8 files", "would be deleted with a retention of 0h");
    assertThat(parquetFiles()).isEqualTo(10);

    Result done = sluice("vacuum", root.toString(), "--retain", "0h", "--force");
    assertThat(done.out()).contains("Deleted 8 files");
    assertThat(parquetFiles()).isEqualTo(2);
    assertThat(rows()).isEqualTo(8);

    Result defaults = sluice("vacuum", root.toString());
    assertThat(defaults.out()).contains("Deleted 0 files", "retention of 168h");
  }
}
