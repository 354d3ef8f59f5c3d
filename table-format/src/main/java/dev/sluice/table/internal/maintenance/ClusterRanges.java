package dev.sluice.table.internal.maintenance;

import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.parquet.FileStats;
import dev.sluice.table.internal.parquet.ParsedStats;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * Which files of one partition a clustering OPTIMIZE rewrites together, so that the partition's files hold disjoint
 * ranges of the first clustering column again after increments added files across them. The files are split, by
 * their min/max of that column, into runs whose ranges overlap (connected ranges); a run with a file that needs
 * clustering (new, or with a deletion vector) is rewritten whole, a run of clustered files only is left alone. A
 * file without usable min/max overlaps every file, so it makes the whole partition one run.
 */
final class ClusterRanges {
  private ClusterRanges() {}

  private record Ranged(AddFile file, Object min, Object max, boolean needed) {}

  /** The runs to rewrite among {@code files}, where {@code needed} says which files must be rewritten. */
  static List<List<AddFile>> runs(List<AddFile> files, Predicate<AddFile> needed, String column, StructType schema) {
    List<Ranged> ranged = new ArrayList<>();
    for (AddFile f : files) {
      Object[] range = range(f, column, schema);
      if (range == null) {
        return files.stream().anyMatch(needed) ? List.of(files) : List.of();
      }
      ranged.add(new Ranged(f, range[0], range[1], needed.test(f)));
    }
    ranged.sort(Comparator.comparing(Ranged::min, RowOrdering::compareValues));
    List<List<AddFile>> out = new ArrayList<>();
    List<AddFile> run = new ArrayList<>();
    boolean runNeeded = false;
    Object runMax = null;
    for (Ranged r : ranged) {
      int c = run.isEmpty() ? 1 : RowOrdering.compareValues(r.min, runMax);
      // Clustered files may share a boundary value; only a file that needs clustering joins a run by touching it.
      boolean joins = c < 0 || (c == 0 && (r.needed || runNeeded));
      if (!run.isEmpty() && !joins) {
        if (runNeeded) {
          out.add(run);
        }
        run = new ArrayList<>();
        runNeeded = false;
        runMax = null;
      }
      run.add(r.file);
      runNeeded |= r.needed;
      runMax = runMax == null || RowOrdering.compareValues(r.max, runMax) > 0 ? r.max : runMax;
    }
    if (runNeeded) {
      out.add(run);
    }
    return out;
  }

  /** The file's {min, max} of {@code column}, or null when its stats don't say. */
  private static Object[] range(AddFile f, String column, StructType schema) {
    if (f.stats() == null || f.stats().isBlank()) {
      return null;
    }
    try {
      ParsedStats s = FileStats.parse(f.stats(), schema);
      Object min = s.minValues().get(column);
      Object max = s.maxValues().get(column);
      return min == null || max == null || min instanceof java.util.Map ? null : new Object[] {min, max};
    } catch (RuntimeException unreadable) {
      return null;
    }
  }
}
