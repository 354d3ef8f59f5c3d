package dev.sluice.table;

import dev.sluice.table.storage.LocalObjectStore;
import java.nio.file.Path;

/** A child process for the two-process append test: appends {@code count} batches of 3 orders. */
public final class AppendWorker {
  private AppendWorker() {}

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    int worker = Integer.parseInt(args[1]);
    int count = Integer.parseInt(args[2]);
    Table table = Table.forPath(new LocalObjectStore(dir), "t");
    for (int i = 0; i < count; i++) {
      int base = (worker * count + i) * 3;
      table.newAppend().rows(Orders.range(base, base + 3)).commit();
    }
  }
}
