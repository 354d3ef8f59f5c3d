package dev.sluice.table.internal.maintenance;

import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which files an OPTIMIZE rewrites, partition by partition. Rules that make a second run a no-op:
 *
 * <ul>
 *   <li>bin-packing takes only files smaller than the target size, and only where a partition has at least two
 *       of them (one small file alone gains nothing) and not all of them were written by an OPTIMIZE (they carry
 *       {@link #ORDER_TAG}); the rewritten rows roll into files of the target size;
 *   <li>Z-order takes the files that don't carry the {@link #ORDER_TAG} of the same ordering (files it wrote do),
 *       so new appends are ordered on the next run and ordered files are left alone;
 *   <li>clustering takes those files too, plus the clustered files whose range of the first clustering column
 *       overlaps theirs, one group per run of overlapping ranges ({@link ClusterRanges}): after the rewrite the
 *       partition's files hold disjoint key ranges again, and clustered files outside the new files' ranges stay.
 * </ul>
 *
 * Files with deletion vectors are always picked (whatever their size, even alone): the rewrite leaves their deleted
 * rows out and the new files have no DV, so OPTIMIZE is how a table sheds its DVs.
 */
public final class CompactionPlan {
  /** The {@code add.tags} key that records the ordering a file's rows were written in ({@link #BIN_PACKED} if none). */
  public static final String ORDER_TAG = "sluice.optimize.order";
  /** The {@link #ORDER_TAG} of files bin-packing wrote. */
  public static final String BIN_PACKED = "binpack";

  private final List<Group> groups;

  private CompactionPlan(List<Group> groups) {
    this.groups = List.copyOf(groups);
  }

  /** One partition's files to rewrite together. */
  public record Group(Map<String, String> partitionValues, List<AddFile> files) {
    public Group {
      files = List.copyOf(files);
    }

    public long bytes() {
      return files.stream().mapToLong(AddFile::size).sum();
    }
  }

  /** The plan over {@code candidates} (files already pruned to the OPTIMIZE's partitions). */
  public static CompactionPlan of(Collection<AddFile> candidates, long targetFileSize, Optional<RowOrdering> ordering,
      StructType schema) {
    java.util.function.Predicate<AddFile> pick = f -> f.deletionVectorJson() != null
        || (ordering.isPresent() ? !ordering.get().tag().equals(tag(f)) : f.size() < targetFileSize);
    if (ordering.isPresent() && ordering.get().mode() == RowOrdering.Mode.CLUSTER) {
      return clustering(candidates, pick, ordering.get().columns().get(0), schema);
    }
    Map<Map<String, String>, List<AddFile>> byPartition = new LinkedHashMap<>();
    for (AddFile f : candidates) {
      if (pick.test(f)) {
        byPartition.computeIfAbsent(f.partitionValues(), k -> new ArrayList<>()).add(f);
      }
    }
    List<Group> groups = new ArrayList<>();
    for (Map.Entry<Map<String, String>, List<AddFile>> e : byPartition.entrySet()) {
      List<AddFile> files = e.getValue();
      // Files an OPTIMIZE wrote may come out below the target (sizes are estimated while writing): alone they are
      // left as they are, so a second run does nothing; new small files are packed together with them.
      boolean withDvs = files.stream().anyMatch(f -> f.deletionVectorJson() != null);
      if (ordering.isEmpty() && !withDvs && (files.size() < 2 || files.stream().allMatch(f -> tag(f) != null))) {
        continue;
      }
      // Smallest first, so the rewritten rows of the smallest files end up together in the first output files.
      files.sort(Comparator.comparingLong(AddFile::size).thenComparing(AddFile::path));
      groups.add(new Group(e.getKey(), files));
    }
    return new CompactionPlan(groups);
  }

  private static CompactionPlan clustering(Collection<AddFile> candidates, java.util.function.Predicate<AddFile> pick,
      String column, StructType schema) {
    Map<Map<String, String>, List<AddFile>> byPartition = new LinkedHashMap<>();
    for (AddFile f : candidates) {
      byPartition.computeIfAbsent(f.partitionValues(), k -> new ArrayList<>()).add(f);
    }
    List<Group> groups = new ArrayList<>();
    byPartition.forEach((partition, files) -> {
      for (List<AddFile> run : ClusterRanges.runs(files, pick, column, schema)) {
        groups.add(new Group(partition, run));
      }
    });
    return new CompactionPlan(groups);
  }

  /** How many partitions have files to rewrite. */
  public int numPartitions() {
    return (int) groups.stream().map(Group::partitionValues).distinct().count();
  }

  /** How many files of one partition are below {@code targetFileSize} (auto-compaction's trigger). */
  public static Map<Map<String, String>, Integer> smallFilesPerPartition(Collection<AddFile> files, long targetFileSize) {
    Map<Map<String, String>, Integer> out = new LinkedHashMap<>();
    for (AddFile f : files) {
      if (f.size() < targetFileSize && f.deletionVectorJson() == null) {
        out.merge(f.partitionValues(), 1, Integer::sum);
      }
    }
    return out;
  }

  private static String tag(AddFile f) {
    return f.tags() == null ? null : f.tags().get(ORDER_TAG);
  }

  public List<Group> groups() {
    return groups;
  }

  public boolean isEmpty() {
    return groups.isEmpty();
  }

  public int numFiles() {
    return groups.stream().mapToInt(g -> g.files().size()).sum();
  }
}
