package dev.sluice.table.internal.dv;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.exceptions.InvalidTableException;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.internal.scan.RowIterators;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.storage.StoragePaths;
import java.net.URI;

/** Loads a data file's deletion vector and leaves the rows it deletes out of the file's rows. */
public final class DeletionVectors {
  private DeletionVectors() {}

  /**
   * The deleted row indexes of {@code dataFile} (for messages) under the table at {@code tablePath} in {@code store}.
   *
   * @throws InvalidTableException when the DV file is missing or damaged, naming it and the fix
   */
  public static DeletedRows load(ObjectStore store, String tablePath, URI tableUri, String dataFile,
      DeletionVectorDescriptor dv) {
    try {
      if (dv.inline()) {
        return DeletedRows.deserialize(Z85.decode(dv.pathOrInlineDv(), dv.sizeInBytes()));
      }
      String key = fileKey(store, tablePath, dv);
      byte[] region = store.readRange(key, dv.fileOffset(), dv.sizeInBytes() + 8);
      DeletedRows rows = DeletedRows.fromFileRegion(region, dv.sizeInBytes());
      if (rows.cardinality() != dv.cardinality()) {
        throw new IllegalArgumentException("it deletes " + rows.cardinality() + " rows, the log says "
            + dv.cardinality());
      }
      return rows;
    } catch (ObjectNotFoundException e) {
      throw new InvalidTableException("The deletion vector of data file " + dataFile + " in " + tableUri
          + " is missing (" + dv.path() + "). Without it deleted rows would come back: restore the file from a"
          + " backup, or time-travel to a version before it was written.", e);
    } catch (IllegalArgumentException | java.nio.BufferUnderflowException e) {
      throw new InvalidTableException("The deletion vector of data file " + dataFile + " in " + tableUri + " ("
          + (dv.inline() ? "inline" : dv.path()) + ") is damaged: " + e.getMessage() + ". Restore it from a backup.", e);
    }
  }

  /** The object key of a file-based DV ({@code u} or {@code p}) of the table at {@code tablePath}. */
  public static String fileKey(ObjectStore store, String tablePath, DeletionVectorDescriptor dv) {
    if (dv.storageType().equals("p")) {
      URI uri = URI.create(dv.path());
      return store.keyOf(uri).orElseThrow(() -> new InvalidTableException("The deletion vector " + uri
          + " is outside the table's store " + store.root()));
    }
    return StoragePaths.join(tablePath, dv.path());
  }

  /** The rows of a data file (in file order) without those {@code deleted} names. */
  public static <T> CloseableIterator<T> skipDeleted(CloseableIterator<T> rows, DeletedRows deleted) {
    // The filter sees each row once, in file order, so counting its calls gives the row index.
    long[] index = {-1};
    return RowIterators.filter(rows, row -> !deleted.contains(++index[0]));
  }
}
