package dev.sluice.table;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.BoundPredicate;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.internal.IndexedRow;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.internal.scan.RowIterators;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;

/** A planned read of one snapshot: the files that may hold matching rows, and the rows themselves. */
public final class Scan {
  private final TableContext context;
  private final SnapshotState state;
  private final StructType outputSchema;
  private final StructType readSchema;
  private final BoundPredicate filter;
  private final Predicate predicate;
  private final int[] projection;
  // The files that may match, and a file's rows in pages that may match (null: all of them).
  private final TableContext.FileFilter files;

  Scan(TableContext context, SnapshotState state, List<String> columns, Predicate predicate) {
    this.context = context;
    this.state = state;
    this.predicate = predicate;
    StructType schema = state.schema();
    List<StructField> out = new ArrayList<>();
    for (String c : columns) {
      out.add(schema.field(c).orElseThrow(() -> new IllegalArgumentException(
          "Column '" + c + "' is not in the table " + context.log().tablePath() + "; its columns are " + schema.fieldNames())));
    }
    this.outputSchema = new StructType(out);
    // Read the selected columns plus those the filter needs, in table order.
    Set<String> needed = new LinkedHashSet<>(columns);
    needed.addAll(predicate.referencedColumns());
    List<StructField> read = new ArrayList<>();
    for (StructField f : schema.fields()) {
      if (needed.stream().anyMatch(n -> n.equalsIgnoreCase(f.name()))) {
        read.add(f);
      }
    }
    this.readSchema = new StructType(read);
    this.filter = predicate.bind(readSchema);
    this.files = context.fileFilter(state, predicate);
    this.projection = new int[out.size()];
    for (int i = 0; i < out.size(); i++) {
      projection[i] = readSchema.indexOf(out.get(i).name());
    }
  }

  /** The schema of the rows this scan returns. */
  public StructType schema() {
    return outputSchema;
  }

  /** The version scanned. */
  public long version() {
    return state.version();
  }

  /** The live files that may hold matching rows (others were skipped by partition values or stats). */
  public List<DataFile> files() {
    List<DataFile> out = new ArrayList<>();
    for (AddFile add : files.files().get()) {
      out.add(context.dataFile(add));
    }
    return out;
  }

  /** Every matching row of every file; the caller closes the iterator. */
  public CloseableIterator<Row> rows() {
    return perFile(this::rowsOf);
  }

  /**
   * Every matching row of every file with its file and row index (for {@link Merge#targetRowsAt}); the caller closes
   * the iterator.
   */
  public CloseableIterator<LocatedRow> locatedRows() {
    return perFile(add -> RowIterators.filter(indexedRows(add), r -> filter.test(r.row()))
        .map(r -> new LocatedRow(add.path(), r.index(), project(r.row()))));
  }

  /** A file's rows with their indexes: only those in pages that may match, when the page index narrows them. */
  private CloseableIterator<IndexedRow> indexedRows(AddFile add) {
    BitSet candidates = files.pages().apply(add);
    return candidates == null ? context.readIndexedRows(state, add, readSchema)
        : context.readIndexedRows(state, add, readSchema, candidates);
  }

  /** The files' iterators one after the other, each opened when the previous one is exhausted. */
  private <T> CloseableIterator<T> perFile(java.util.function.Function<AddFile, CloseableIterator<T>> open) {
    Iterator<AddFile> it = files.files().get().iterator();
    return RowIterators.concat(new Iterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public CloseableIterator<T> next() {
        if (!it.hasNext()) {
          throw new NoSuchElementException();
        }
        return open.apply(it.next());
      }
    });
  }

  private Row project(Row row) {
    Object[] out = new Object[projection.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = row.get(projection[i]);
    }
    return Row.of(out);
  }

  /** The matching rows of one file of this scan; the caller closes the iterator. */
  public CloseableIterator<Row> rows(DataFile file) {
    AddFile add = state.activeFiles().values().stream()
        .filter(a -> context.dataFile(a).key().equals(file.key()))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(file.key() + " is not a live file of version " + state.version()));
    return rowsOf(add);
  }

  private CloseableIterator<Row> rowsOf(AddFile add) {
    BitSet candidates = files.pages().apply(add);
    CloseableIterator<Row> raw = candidates == null ? context.readRows(state, add, readSchema)
        : context.readIndexedRows(state, add, readSchema, candidates).map(IndexedRow::row);
    return RowIterators.filterProject(raw, filter, readSchema, projection);
  }
}
