package dev.sluice.table.internal.scan;

import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.parquet.FileStats;
import dev.sluice.table.internal.parquet.ParsedStats;
import dev.sluice.table.internal.partition.ColumnStats;
import dev.sluice.table.internal.partition.FilePruner;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Chooses the files a predicate may need: exact on partition values, conservative on min/max stats.
 * A file whose stats can't be parsed is kept (stats are optional in Delta).
 */
public final class FileSkipping {
  private FileSkipping() {}

  public static List<AddFile> prune(StructType schema, List<String> partitionColumns, Collection<AddFile> files,
      Predicate predicate) {
    if (predicate instanceof Predicate.Constant c && c.value()) {
      return new ArrayList<>(files);
    }
    return prune(schema, files, FilePruner.of(predicate.bind(schema), partitionColumns));
  }

  /** {@link #prune} with the predicate bound already (a scan or MERGE asks files and pages of one binding). */
  public static List<AddFile> prune(StructType schema, Collection<AddFile> files, FilePruner pruner) {
    List<AddFile> out = new ArrayList<>();
    for (AddFile f : files) {
      if (pruner.mightMatch(f.partitionValues(), stats(f, schema))) {
        out.add(f);
      }
    }
    return out;
  }

  /** {@link #prune} for one file at a time, binding the predicate once (lazily: most matchers are never asked). */
  public static java.util.function.Predicate<AddFile> matcher(StructType schema, List<String> partitionColumns,
      Predicate predicate) {
    if (predicate instanceof Predicate.Constant c) {
      return f -> c.value();
    }
    FilePruner[] pruner = new FilePruner[1];
    return f -> {
      synchronized (pruner) {
        if (pruner[0] == null) {
          pruner[0] = FilePruner.of(predicate.bind(schema), partitionColumns);
        }
      }
      return pruner[0].mightMatch(f.partitionValues(), stats(f, schema));
    };
  }

  static ColumnStats stats(AddFile f, StructType schema) {
    if (f.stats() == null || f.stats().isBlank()) {
      return ColumnStats.NONE;
    }
    ParsedStats parsed;
    try {
      parsed = FileStats.parse(f.stats(), schema);
    } catch (RuntimeException unreadable) {
      return ColumnStats.NONE;
    }
    Map<String, Long> nulls = new HashMap<>();
    parsed.nullCount().forEach((k, v) -> {
      if (v instanceof Long l) {
        nulls.put(k, l);
      }
    });
    return ColumnStats.of(parsed.numRecords().isPresent() ? parsed.numRecords().getAsLong() : null,
        parsed.minValues(), parsed.maxValues(), nulls);
  }
}
