package dev.sluice.ingestion.internal.spill;

import dev.sluice.ingestion.state.internal.RowSpillCodec;
import dev.sluice.table.data.Row;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.AbstractList;
import java.util.Iterator;
import java.util.ListIterator;
import java.util.NoSuchElementException;

/**
 * Rows in a spill file, read back on each iteration (a buffered sequential read, one row decoded at a time).
 * {@code get(i)} seeks to the block of {@code i} (the offset of every {@link #BLOCK}-th row is kept) and reads
 * forward, so a loop over {@code get(0..n)} stays sequential. The file is deleted when the list is unreachable.
 */
final class SpilledRows extends AbstractList<Row> implements BatchRows {
  static final int BLOCK = 1024;
  private static final Cleaner CLEANER = Cleaner.create();

  private final Path file;
  private final RowSpillCodec codec;
  private final int size;
  private final long[] blockOffsets;
  private Cursor cursor;

  SpilledRows(Path file, RowSpillCodec codec, int size, long[] blockOffsets) {
    this.file = file;
    this.codec = codec;
    this.size = size;
    this.blockOffsets = blockOffsets;
    CLEANER.register(this, () -> {
      try {
        Files.deleteIfExists(file);
      } catch (IOException ignored) {
        // a leftover in the temp directory; nothing refers to it any more
      }
    });
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean spilled() {
    return true;
  }

  @Override
  public Iterator<Row> iterator() {
    return listIterator(0);
  }

  /** A forward-only iterator from {@code index} with a reader of its own (what {@code subList(..).iterator()} uses). */
  @Override
  public ListIterator<Row> listIterator(int index) {
    return listIterator(index, null);
  }

  @Override
  public Iterator<Row> iterator(boolean[] wanted) {
    return listIterator(0, wanted);
  }

  private ListIterator<Row> listIterator(int index, boolean[] wanted) {
    java.util.Objects.checkIndex(index, size + 1);
    return new ForwardRowIterator() {
      private final Cursor reader = index == size ? null : new Cursor(index / BLOCK * BLOCK, wanted);
      private int next = reader == null ? index : reader.skipTo(index);
      // Started once a block was read: a pass is under way, not a peek at the first rows.
      private final int aheadFrom = reader != null && ReadAhead.worthIt() ? next + BLOCK : Integer.MAX_VALUE;
      private ReadAhead ahead;

      @Override
      public int nextIndex() {
        return next;
      }

      @Override
      public boolean hasNext() {
        if (next < size) {
          return true;
        }
        if (reader != null && ahead == null) {
          reader.close();
        }
        return false;
      }

      @Override
      public Row next() {
        if (next >= size) {
          throw new NoSuchElementException();
        }
        if (next == aheadFrom && size - next > BLOCK) {
          ahead = new ReadAhead(rowsOf(reader, size - next), BLOCK, reader::close);
        }
        next++;
        if (ahead != null) {
          return ahead.next();
        }
        Row r = reader.next();
        if (next == size) {
          reader.close();
        }
        return r;
      }
    };
  }

  /** The next {@code n} rows of {@code cursor}; static, so that a producer never holds the list iterator. */
  private static ReadAhead.Blocks rowsOf(Cursor cursor, int n) {
    return new ReadAhead.Blocks() {
      private int left = n;

      @Override
      public int next(Row[] into) {
        int take = Math.min(into.length, left);
        for (int i = 0; i < take; i++) {
          into[i] = cursor.next();
        }
        left -= take;
        return take;
      }
    };
  }

  @Override
  public synchronized Row get(int index) {
    java.util.Objects.checkIndex(index, size);
    if (cursor == null || index < cursor.row || index >= cursor.row + BLOCK) {
      if (cursor != null) {
        cursor.close();
      }
      cursor = new Cursor(index / BLOCK * BLOCK, null);
    }
    while (cursor.row < index) {
      cursor.next();
    }
    return cursor.next();
  }

  /** A reader positioned at a row, holding the file open until closed. */
  private final class Cursor {
    private final InputStream in;
    private final RowSpillCodec.Reader reader;
    private int row;

    Cursor(int firstRow, boolean[] wanted) {
      try {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        channel.position(blockOffsets[firstRow / BLOCK]);
        this.in = Channels.newInputStream(channel);
      } catch (IOException e) {
        throw new UncheckedIOException("Can't read a batch's spill file " + file + " back: " + e.getMessage(), e);
      }
      this.reader = codec.reader(in, wanted);
      this.row = firstRow;
    }

    Row next() {
      row++;
      return reader.next();
    }

    /** Reads up to row {@code index}; returns it. */
    int skipTo(int index) {
      while (row < index) {
        next();
      }
      return row;
    }

    void close() {
      try {
        in.close();
      } catch (IOException ignored) {
        // read-only
      }
    }
  }
}
