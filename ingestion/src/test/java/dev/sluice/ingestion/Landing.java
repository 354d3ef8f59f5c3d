package dev.sluice.ingestion;

import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Landing files of small JSON orders for engine tests: file f holds ids f*perFile … f*perFile+perFile-1. */
final class Landing {
  static final StructType SCHEMA = StructType.of(
      StructField.of("id", PrimitiveType.LONG), StructField.of("status", PrimitiveType.STRING),
      StructField.of("amount", PrimitiveType.DOUBLE));

  private Landing() {}

  static void write(Path dir, int fromFile, int toFile, int perFile) {
    try {
      Files.createDirectories(dir);
      for (int f = fromFile; f < toFile; f++) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < perFile; i++) {
          long id = (long) f * perFile + i;
          sb.append("{\"id\":").append(id).append(",\"status\":\"").append(id % 5 == 0 ? "test" : "open")
              .append("\",\"amount\":").append(id * 1.5).append("}\n");
        }
        Path tmp = dir.resolve(".tmp-" + f);
        Files.writeString(tmp, sb.toString());
        Files.move(tmp, dir.resolve(String.format("orders-%05d.jsonl", f)));
        // distinct modification times keep discovery order = file order
        dir.resolve(String.format("orders-%05d.jsonl", f)).toFile().setLastModified(1_700_000_000_000L + f * 1000L);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The ids in a table, sorted (duplicates kept, so that tests can see them). */
  static List<Long> ids(Table table) {
    List<Long> out = new ArrayList<>();
    try (CloseableIterator<Row> it = table.latestSnapshot().scan().select("id").build().rows()) {
      while (it.hasNext()) {
        out.add((Long) it.next().get(0));
      }
    }
    return out.stream().sorted().collect(Collectors.toList());
  }

  static List<Long> range(long from, long to) {
    List<Long> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(i);
    }
    return out;
  }
}
