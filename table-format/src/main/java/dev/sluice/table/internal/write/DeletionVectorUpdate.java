package dev.sluice.table.internal.write;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.actions.Protocol;
import dev.sluice.table.internal.dv.DeletedRows;
import dev.sluice.table.internal.dv.DeletionVectorDescriptor;
import dev.sluice.table.internal.dv.DeletionVectorFile;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rows an operation (DELETE, UPDATE, MERGE) deletes from data files it keeps, marked in deletion vectors instead
 * of rewriting the files. Each such file is removed and added again with a DV that is the union of its old one and
 * the newly deleted rows; all DVs of one commit share one DV file. A file left without any row is simply removed.
 * The re-added file keeps its stats with {@code numRecords} the physical row count (the protocol demands it with
 * DVs) and {@code tightBounds=false}: its min/max still bound the remaining rows, but are no longer tight.
 *
 * <p>With table property {@value #INLINE_MAX_BYTES_PROPERTY} set to a size, a DV whose serialised bitmap is at most
 * that many bytes goes inline into the log action instead ({@code storageType: i}, Z85), so that reading the file
 * needs no second object; 64 bytes holds a few dozen scattered rows, or runs of them, and keeps log lines (and the
 * checkpoints that repeat them) short. Off by default: Delta Kernel 4.0.0 compares {@code storageType} by reference
 * ({@code == "i"}), so it takes every inline DV it parses for a path and fails the read (see InlineDeletionVectorKernelIT).
 */
public final class DeletionVectorUpdate {
  public static final String PROPERTY = "delta.enableDeletionVectors";
  /** The table property with the largest serialised DV (bytes) kept inline in the log. */
  public static final String INLINE_MAX_BYTES_PROPERTY = "sluice.deletionVectors.inlineMaxBytes";
  public static final int DEFAULT_INLINE_MAX_BYTES = 0;
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Logger LOG = LoggerFactory.getLogger(DeletionVectorUpdate.class);

  private final TableContext context;
  private final List<Pending> pending = new ArrayList<>();

  private record Pending(AddFile file, DeletedRows deleted, long physicalRows) {}

  /** What {@link #addTo} committed, for the operation's metrics. */
  public record Counts(int dvsAdded, int dvsRemoved, int filesRemoved, long bytesRemoved, long dvFileBytes) {}

  public DeletionVectorUpdate(TableContext context) {
    this.context = context;
  }

  /**
   * Whether writes to a table with this protocol and metadata mark deleted rows in DVs: the table property is on
   * and the protocol has the {@code deletionVectors} feature (a table created with the property has it).
   */
  public static boolean enabled(Protocol protocol, Metadata metadata) {
    return "true".equalsIgnoreCase(metadata.configuration().get(PROPERTY)) && protocol.writerFeatures() != null
        && protocol.writerFeatures().contains("deletionVectors");
  }

  /**
   * Marks {@code deleted} (row indexes of {@code file}, none already deleted) as deleted; {@code physicalRows} is
   * the number of rows in the Parquet file, deleted ones included.
   */
  public void delete(AddFile file, DeletedRows deleted, long physicalRows) {
    if (!deleted.isEmpty()) {
      pending.add(new Pending(file, deleted, physicalRows));
    }
  }

  public boolean isEmpty() {
    return pending.isEmpty();
  }

  /** Writes the commit's DV file and adds the files' removes and re-adds to {@code txn}. */
  public Counts addTo(OptimisticTransaction txn, long now) {
    DeletionVectorFile dvFile = new DeletionVectorFile();
    int inlineMax = inlineMaxBytes(txn.metadata());
    List<AddFile> reAdded = new ArrayList<>();
    int dvsRemoved = 0;
    int filesRemoved = 0;
    long bytesRemoved = 0;
    for (Pending p : pending) {
      DeletedRows old = context.deletedRows(p.file);
      DeletedRows all = old.union(p.deleted);
      txn.remove(p.file.toRemove(now, true));
      if (p.file.deletionVectorJson() != null) {
        dvsRemoved++;
      }
      if (all.cardinality() >= p.physicalRows) {
        filesRemoved++;
        bytesRemoved += p.file.size();
        continue;
      }
      byte[] serialized = all.serialize();
      String dv = serialized.length <= inlineMax ? DeletionVectorDescriptor.inlineJson(serialized, all)
          : dvFile.add(all, serialized);
      reAdded.add(new AddFile(p.file.path(), p.file.partitionValues(), p.file.size(), p.file.modificationTime(),
          true /* dataChange */, wideStats(p.file.stats(), p.physicalRows), p.file.tags(), dv));
    }
    long bytes = 0;
    if (!dvFile.isEmpty()) {
      String tablePath = context.log().tablePath();
      txn.wrote(dvFile.key(tablePath));
      dvFile.write(context.log().store(), tablePath);
      bytes = dvFile.size();
    }
    reAdded.forEach(txn::reAdd);
    return new Counts(reAdded.size(), dvsRemoved, filesRemoved, bytesRemoved, bytes);
  }

  /** The inline limit of a table; a value that is not a size keeps the default and is logged, never failing a write. */
  static int inlineMaxBytes(Metadata metadata) {
    String raw = metadata.configuration().get(INLINE_MAX_BYTES_PROPERTY);
    if (raw == null) {
      return DEFAULT_INLINE_MAX_BYTES;
    }
    try {
      return Math.max(0, Integer.parseInt(raw.trim()));
    } catch (NumberFormatException e) {
      LOG.warn("Table property {}='{}' is not a number of bytes, so every DV goes to a DV file. Set it to bytes"
          + " (e.g. 64), or 0 to write every DV to a file.", INLINE_MAX_BYTES_PROPERTY, raw);
      return DEFAULT_INLINE_MAX_BYTES;
    }
  }

  /** The stats of a file with a DV: numRecords counts every row of the Parquet file, and bounds are wide. */
  static String wideStats(String stats, long physicalRows) {
    ObjectNode n;
    try {
      n = stats == null ? MAPPER.createObjectNode() : (ObjectNode) MAPPER.readTree(stats);
    } catch (IOException | ClassCastException e) {
      n = MAPPER.createObjectNode();
    }
    n.put("numRecords", physicalRows);
    n.put("tightBounds", false);
    return n.toString();
  }
}
