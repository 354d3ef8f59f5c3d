package dev.sluice.silver;

import dev.sluice.ingestion.Batch;
import dev.sluice.table.data.AbstractRow;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * A batch split by the hash of its merge key into partitions small enough for the per-key work of a MERGE
 * (winners, the table's rows, tombstones) to fit in the heap; each partition's rows carry their position in the
 * batch as one more, last column. A batch of at most {@link #PARTITION_ROWS} rows ({@code sluice.silver.mergePartitionRows}) is one partition read from the
 * batch itself. The split depends only on the batch's rows, so a re-run batch is split the same way.
 */
final class KeyPartitions {
  /** The system property setting the rows per partition (tests lower it to split small batches). */
  static final String PARTITION_ROWS_PROPERTY = "sluice.silver.mergePartitionRows";
  /** Rows per partition: their per-key work takes some hundred bytes per row besides the rows. */
  static final int PARTITION_ROWS = 250_000;

  private final Batch batch;
  private final int[] keys;
  private final List<Batch> parts;
  private final short[] partOf;
  private final int count;
  private final Object[] min;
  private final Object[] max;
  private final KeyFilter filter;

  private KeyPartitions(Batch batch, int[] keys, List<Batch> parts, short[] partOf, int count, Object[] min,
      Object[] max, KeyFilter filter) {
    this.batch = batch;
    this.keys = keys;
    this.parts = parts;
    this.partOf = partOf;
    this.count = count;
    this.min = min;
    this.max = max;
    this.filter = filter;
  }

  static KeyPartitions of(Batch batch, int[] keys) {
    int per = Math.max(1, Integer.getInteger(PARTITION_ROWS_PROPERTY, PARTITION_ROWS));
    int count = Math.max(1, (int) ((batch.size() + (long) per - 1) / per));
    Object[] min = new Object[keys.length];
    Object[] max = new Object[keys.length];
    if (count == 1) {
      return new KeyPartitions(batch, keys, null, null, 1, min, max, null);
    }
    if ((!batch.spilled() || count <= 2) && count <= Short.MAX_VALUE) {
      return views(batch, keys, count, min, max);
    }
    StructType schema = batch.schema().add("_position", PrimitiveType.LONG);
    long budget = Math.max(1 << 20, Batch.memoryBudget() / count);
    Batch.Builder[] builders = new Batch.Builder[count];
    for (int p = 0; p < count; p++) {
      builders[p] = Batch.builder(schema, budget);
    }
    long position = 0;
    int width = batch.schema().size();
    KeyFilter filter = new KeyFilter(batch.size());
    for (Row r : batch.rows()) {
      List<Object> key = SilverSchemas.key(r, keys);
      Object[] values = Arrays.copyOf(r.toArray(), width + 1);
      values[width] = position++;
      builders[key == null ? 0 : of(key, count)].add(Row.of(values));
      if (key != null) {
        widen(key, min, max);
        filter.add(key);
      }
    }
    return new KeyPartitions(batch, keys, Arrays.stream(builders).map(Batch.Builder::build).toList(), null, count,
        min, max, filter);
  }

  /**
   * Partitions that read the batch itself, skipping the other partitions' rows: cheaper than copying when the batch
   * is in the heap, or spilled and read only twice.
   */
  private static KeyPartitions views(Batch batch, int[] keys, int count, Object[] min, Object[] max) {
    short[] partOf = new short[batch.size()];
    KeyFilter filter = new KeyFilter(batch.size());
    int i = 0;
    Object[] key = new Object[keys.length];
    rows:
    for (Row r : batch.project(keys)) {
      // The key's List hash, computed in place: no key list per row (what SilverSchemas.key makes).
      int hash = 1;
      for (int k = 0; k < keys.length; k++) {
        key[k] = r.get(keys[k]);
        if (key[k] == null) {
          partOf[i++] = 0;
          continue rows;
        }
        hash = 31 * hash + key[k].hashCode();
      }
      partOf[i++] = (short) of(hash, count);
      widen(Arrays.asList(key), min, max);
      filter.add(hash);
    }
    return new KeyPartitions(batch, keys, null, partOf, count, min, max, filter);
  }

  /** The partition of {@code key} among {@code count}. */
  static int of(List<Object> key, int count) {
    return of(key.hashCode(), count);
  }

  /** The partition of the key whose {@link List#hashCode} is {@code keyHash}. */
  private static int of(int keyHash, int count) {
    int h = keyHash * 0x9E3779B9;
    return Math.floorMod(h ^ (h >>> 16), count);
  }

  int count() {
    return count;
  }

  /**
   * False when no row of the batch has {@code key} (several partitions only; true for one): the table's rows read for
   * a MERGE of several partitions are mostly of keys the batch doesn't have, and need not be kept.
   */
  boolean mightHold(List<Object> key) {
    return filter == null || filter.mightHold(key);
  }

  /**
   * Partition {@code p}'s rows, each with its batch position (a long) as the last column, of which only
   * {@code columns} (positions in the batch's schema; null: all) are sure to hold their values: the others may read
   * null, and a spilled batch then decodes only those.
   */
  Iterable<Row> rows(int p, int[] columns) {
    if (parts != null) {
      Batch part = parts.get(p);
      return columns == null ? part.rows() : part.project(withPosition(columns, batch.schema().size()));
    }
    Iterable<Row> source = columns == null ? batch.rows() : batch.project(columns);
    return () -> new Iterator<>() {
      private final Iterator<Row> it = source.iterator();
      private final int width = batch.schema().size();
      private int position = -1;
      private Row next = advance();

      private Row advance() {
        while (it.hasNext()) {
          Row r = it.next();
          position++;
          if (partOf == null || partOf[position] == p) {
            return new PositionedRow(r, width, position);
          }
        }
        return null;
      }

      @Override
      public boolean hasNext() {
        return next != null;
      }

      @Override
      public Row next() {
        if (next == null) {
          throw new NoSuchElementException();
        }
        Row r = next;
        next = advance();
        return r;
      }
    };
  }

  /** The batch position of a row of {@link #rows}. */
  static int positionOf(Row row) {
    return row instanceof PositionedRow p ? p.position : (int) (long) (Long) row.get(row.size() - 1);
  }

  /**
   * A row of the batch read through, with its batch position as one more, last column: two copies of its values
   * and a boxed position per row and pass (two passes over each batch) were most of what the MERGE's key passes
   * allocated.
   */
  private static final class PositionedRow extends AbstractRow {
    private final Row row;
    private final int width;
    private final int position;

    PositionedRow(Row row, int width, int position) {
      this.row = row;
      this.width = width;
      this.position = position;
    }

    @Override
    public int size() {
      return width + 1;
    }

    @Override
    public Object get(int ordinal) {
      return Objects.checkIndex(ordinal, width + 1) == width ? (Object) (long) position : row.get(ordinal);
    }
  }

  private static int[] withPosition(int[] columns, int position) {
    int[] out = Arrays.copyOf(columns, columns.length + 1);
    out[columns.length] = position;
    return out;
  }

  /** The least value of each key column over the batch, for several partitions (null: the values don't order). */
  Object[] min() {
    return min;
  }

  /** The greatest value of each key column, for several partitions. */
  Object[] max() {
    return max;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void widen(List<Object> key, Object[] min, Object[] max) {
    for (int i = 0; i < min.length; i++) {
      Object v = key.get(i);
      if (!(v instanceof Comparable) || v instanceof byte[]) {
        continue;
      }
      if (min[i] == null || ((Comparable) v).compareTo(min[i]) < 0) {
        min[i] = v;
      }
      if (max[i] == null || ((Comparable) v).compareTo(max[i]) > 0) {
        max[i] = v;
      }
    }
  }
}
