package dev.sluice.table.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.DataFile;
import dev.sluice.table.MergeCondition;
import dev.sluice.table.Table;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.internal.dv.DeletedRows;
import dev.sluice.table.internal.dv.DeletionVectorDescriptor;
import dev.sluice.table.internal.dv.DeletionVectors;
import dev.sluice.table.storage.LocalObjectStore;
import io.delta.kernel.internal.deletionvectors.DeletionVectorStoredBitmap;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inline deletion vectors Sluice writes ({@code sluice.deletionVectors.inlineMaxBytes}) decode in Delta Kernel's own DV
 * codec to the rows Sluice deletes; and Kernel 4.0.0's scan cannot read them yet, which is why they are off by default.
 */
class InlineDeletionVectorKernelIT {
  private static final int ROWS = 1_000;
  @TempDir Path dir;

  /** Two files of 1,000 rows (ids 0..999 and 1000..1999, in order): small DVs inline, a large one in a DV file. */
  private Table tableWithInlineDvs() {
    Table table = Table.forPath(new LocalObjectStore(dir), "inline");
    table.create(KernelInteropIT.ALL_TYPES).property("delta.enableDeletionVectors", "true")
        .property("sluice.deletionVectors.inlineMaxBytes", "64").commit();
    table.newAppend().rows(KernelInteropIT.allTypes(0, ROWS)).commit();
    table.newAppend().rows(KernelInteropIT.allTypes(ROWS, 2 * ROWS)).commit();
    table.newDelete().where(Predicate.in("id", List.of(3L, 500L, 999L))).commit();
    List<Object> scattered = new ArrayList<>();
    for (long i = ROWS; i < 2 * ROWS; i += 7) {
      scattered.add(i);
    }
    table.newDelete().where(Predicate.in("id", scattered)).commit();
    table.newMerge().source(KernelInteropIT.ALL_TYPES, List.of(KernelInteropIT.allTypes(10), KernelInteropIT.allTypes(11)))
        .on("id").whenMatchedDelete(MergeCondition.always(), "true").commit();
    return table;
  }

  @Test
  void kernelsDvCodecDecodesSluicesInlineDvsToTheDeletedRows() throws IOException {
    Table table = tableWithInlineDvs();
    List<DataFile> files = table.latestSnapshot().files().stream().filter(DataFile::hasDeletionVector)
        .sorted(java.util.Comparator.comparing(f -> f.numRecords().orElse(0))).toList();
    assertThat(files).hasSize(2);
    DataFile scattered = files.get(0);
    DataFile inline = files.get(1);
    assertThat(inline.deletionVectorJson()).contains("\"storageType\":\"i\"");
    assertThat(scattered.deletionVectorJson()).contains("\"storageType\":\"u\"");

    assertThat(kernelDecoded(inline.deletionVectorJson())).containsExactly(3L, 10L, 11L, 500L, 999L)
        .isEqualTo(sluiceDecoded(table, inline));
    assertThat(KernelInteropIT.sluiceRows(table)).hasSize(2 * ROWS - 5 - (ROWS + 6) / 7);
  }

  /**
   * A canary: Kernel 4.0.0's {@code DeletionVectorDescriptor.isInline} is {@code storageType == "i"}, false for the
   * string its JSON reader makes, so it reads an inline DV as a path. When a Kernel upgrade makes this test fail,
   * Kernel reads inline DVs: assert it sees Sluice's rows here, and consider turning inline DVs on by default.
   */
  @Test
  void kernel400CannotScanATableWithInlineDvs() {
    Table table = tableWithInlineDvs();
    assertThatThrownBy(() -> KernelInteropIT.kernelRows(dir.resolve("inline").toString(), KernelReader.localConf()))
        .isInstanceOf(RuntimeException.class).hasMessageContaining("cannot be turned into a relative path");
    assertThat(KernelInteropIT.sluiceRows(table)).isNotEmpty();
  }

  /** The row indexes Kernel's DV codec reads from an inline descriptor (built with Kernel's own interned marker). */
  private static List<Long> kernelDecoded(String json) throws IOException {
    DeletionVectorDescriptor ours = DeletionVectorDescriptor.parse(json, "data file");
    var kernel = new io.delta.kernel.internal.actions.DeletionVectorDescriptor(
        io.delta.kernel.internal.actions.DeletionVectorDescriptor.INLINE_DV_MARKER, ours.pathOrInlineDv(),
        Optional.empty(), ours.sizeInBytes(), ours.cardinality());
    long[] rows = new DeletionVectorStoredBitmap(kernel, Optional.empty()).load(null).toArray();
    return Arrays.stream(rows).boxed().toList();
  }

  private static List<Long> sluiceDecoded(Table table, DataFile file) {
    DeletedRows rows = DeletionVectors.load(table.store(), table.path(), table.uri(), file.logPath(),
        DeletionVectorDescriptor.parse(file.deletionVectorJson(), file.logPath()));
    return LongStream.range(0, ROWS).filter(rows::contains).boxed().toList();
  }
}
