package dev.sluice.table.internal.parquet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * One flat column chunk of a row group, decoded a run of rows at a time into longs (INT64 and DOUBLE as their raw
 * 64 bits, INT32 sign-extended) or byte ranges (BINARY). PLAIN and dictionary pages with RLE definition levels, what
 * Sluice and Spark write, are decoded here in bulk; any other encoding through parquet-java's value readers, a value
 * per call.
 */
final class ColumnCursor {
  private final ColumnDescriptor descriptor;
  private final PageReader pages;
  private final PrimitiveTypeName physical;
  private final int maxDefinition;
  private final String file;
  private long[] dictionaryLongs;
  private byte[][] dictionaryBytes;
  private Dictionary dictionary;

  // The current page.
  private int pageLeft;
  private HybridDecoder levels;
  private ValuesReader levelReader;
  private byte[] page;
  private int plainAt;
  private HybridDecoder ids;
  private ValuesReader values;

  private int[] levelScratch = new int[0];
  private long[] scratch = new long[0];
  private int[] idScratch = new int[0];

  ColumnCursor(ColumnDescriptor descriptor, PageReader pages, String file) {
    this.descriptor = descriptor;
    this.pages = pages;
    this.physical = descriptor.getPrimitiveType().getPrimitiveTypeName();
    this.maxDefinition = descriptor.getMaxDefinitionLevel();
    this.file = file;
    DictionaryPage dict = pages.readDictionaryPage();
    if (dict != null) {
      readDictionary(dict);
    }
  }

  /** Whether a column of this physical type is decoded here. */
  static boolean supports(PrimitiveTypeName physical) {
    return physical == PrimitiveTypeName.INT64 || physical == PrimitiveTypeName.INT32
        || physical == PrimitiveTypeName.DOUBLE || physical == PrimitiveTypeName.BINARY;
  }

  /**
   * Decodes the next {@code n} rows: their values into {@code longs[0..n)} (fixed width) or appended to
   * {@code bytes} (BINARY), their nulls as bits in {@code nulls}; returns whether any row was null.
   */
  boolean read(int n, long[] longs, ByteRanges bytes, long[] nulls) {
    boolean anyNull = false;
    int at = 0;
    while (at < n) {
      if (pageLeft == 0) {
        nextPage();
      }
      int take = Math.min(n - at, pageLeft);
      int present = take;
      int[] defined = null;
      if (maxDefinition > 0) {
        defined = levels(take);
        present = 0;
        for (int i = 0; i < take; i++) {
          if (defined[i] == maxDefinition) {
            present++;
          } else {
            int row = at + i;
            nulls[row >>> 6] |= 1L << row;
            anyNull = true;
          }
        }
      }
      decode(take, at, longs, bytes, present == take ? null : defined, present);
      at += take;
      pageLeft -= take;
    }
    return anyNull;
  }

  private int[] levels(int n) {
    if (levelScratch.length < n) {
      levelScratch = new int[Math.max(n, 1024)];
    }
    if (levels != null) {
      levels.read(levelScratch, n);
    } else {
      for (int i = 0; i < n; i++) {
        levelScratch[i] = levelReader.readInteger();
      }
    }
    return levelScratch;
  }

  /**
   * Decodes rows {@code at..at + rows)}: with {@code defined}, only those whose level is the maximum have a value
   * ({@code present} of them; a null row gets 0 in {@code longs}, an empty range in {@code bytes}).
   */
  private void decode(int rows, int at, long[] longs, ByteRanges bytes, int[] defined, int present) {
    if (physical == PrimitiveTypeName.BINARY) {
      if (defined == null && ids != null) {
        int[] id = ids(rows);
        for (int i = 0; i < rows; i++) {
          bytes.entry(dictionaryBytes, id[i]);
        }
        return;
      }
      for (int i = 0; i < rows; i++) {
        if (defined == null || defined[i] == maxDefinition) {
          nextBinary(bytes);
        } else {
          bytes.none();
        }
      }
      return;
    }
    if (values != null) {
      for (int i = 0; i < rows; i++) {
        longs[at + i] = defined == null || defined[i] == maxDefinition ? nextLong() : 0;
      }
      return;
    }
    if (defined == null) {
      decodeLongs(rows, longs, at);
      return;
    }
    if (scratch.length < present) {
      scratch = new long[Math.max(present, 1024)];
    }
    decodeLongs(present, scratch, 0);
    int v = 0;
    for (int i = 0; i < rows; i++) {
      longs[at + i] = defined[i] == maxDefinition ? scratch[v++] : 0;
    }
  }

  private int[] ids(int n) {
    if (idScratch.length < n) {
      idScratch = new int[Math.max(n, 1024)];
    }
    ids.read(idScratch, n);
    return idScratch;
  }

  /** Bulk PLAIN or dictionary longs for {@code n} rows without nulls. */
  private void decodeLongs(int n, long[] longs, int at) {
    if (ids != null) {
      int[] id = ids(n);
      for (int i = 0; i < n; i++) {
        longs[at + i] = dictionaryLongs[id[i]];
      }
      return;
    }
    ByteBuffer b = ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN);
    if (physical == PrimitiveTypeName.INT32) {
      for (int i = 0; i < n; i++) {
        longs[at + i] = b.getInt(plainAt);
        plainAt += 4;
      }
    } else {
      for (int i = 0; i < n; i++) {
        longs[at + i] = b.getLong(plainAt);
        plainAt += 8;
      }
    }
  }

  private long nextLong() {
    return switch (physical) {
      case INT32 -> values.readInteger();
      case DOUBLE -> Double.doubleToRawLongBits(values.readDouble());
      default -> values.readLong();
    };
  }

  private void nextBinary(ByteRanges out) {
    if (values != null) {
      Binary b = values.readBytes();
      out.append(b.getBytesUnsafe(), 0, b.length());
      return;
    }
    if (ids != null) {
      out.entry(dictionaryBytes, ids(1)[0]);
      return;
    }
    int length = readIntLe(page, plainAt);
    out.append(page, plainAt + 4, length);
    plainAt += 4 + length;
  }

  private void nextPage() {
    DataPage p = pages.readPage();
    if (p == null) {
      throw new IllegalStateException("Column " + descriptor + " of " + file + " has fewer values than its row group");
    }
    pageLeft = p.getValueCount();
    levels = null;
    levelReader = null;
    ids = null;
    values = null;
    try {
      if (p instanceof DataPageV1 v1) {
        page = PageCodecs.wholeArray(v1.getBytes());
        int at = 0;
        if (maxDefinition > 0) {
          if (v1.getDlEncoding() == Encoding.RLE) {
            int length = readIntLe(page, 0);
            levels = new HybridDecoder(page, 4, 4 + length, bitWidth(maxDefinition));
            at = 4 + length;
          } else {
            levelReader = v1.getDlEncoding().getValuesReader(descriptor, ValuesType.DEFINITION_LEVEL);
            ByteBufferInputStream in = ByteBufferInputStream.wrap(ByteBuffer.wrap(page));
            levelReader.initFromPage(pageLeft, in);
            at = (int) in.position();
          }
        }
        startValues(v1.getValueEncoding(), at);
      } else {
        DataPageV2 v2 = (DataPageV2) p;
        if (maxDefinition > 0) {
          byte[] d = PageCodecs.wholeArray(v2.getDefinitionLevels());
          levels = new HybridDecoder(d, 0, d.length, bitWidth(maxDefinition));
        }
        page = PageCodecs.wholeArray(v2.getData());
        startValues(v2.getDataEncoding(), 0);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("Reading a page of column " + descriptor + " of " + file + " failed", e);
    }
  }

  private void startValues(Encoding encoding, int at) throws IOException {
    if (encoding.usesDictionary()) {
      if (dictionary == null && dictionaryLongs == null && dictionaryBytes == null) {
        throw new IllegalStateException("Column " + descriptor + " of " + file + " has dictionary pages but no"
            + " dictionary");
      }
      if (encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.RLE_DICTIONARY) {
        int width = page[at] & 0xFF;
        ids = new HybridDecoder(page, at + 1, page.length, width);
        return;
      }
      values = encoding.getDictionaryBasedValuesReader(descriptor, ValuesType.VALUES, dictionary());
    } else if (encoding == Encoding.PLAIN) {
      plainAt = at;
      return;
    } else {
      values = encoding.getValuesReader(descriptor, ValuesType.VALUES);
    }
    values.initFromPage(pageLeft, ByteBufferInputStream.wrap(ByteBuffer.wrap(page, at, page.length - at)));
  }

  private Dictionary dictionary() {
    if (dictionary == null) {
      throw new IllegalStateException("Column " + descriptor + " of " + file + " has no dictionary");
    }
    return dictionary;
  }

  private void readDictionary(DictionaryPage dict) {
    try {
      dictionary = dict.getEncoding().initDictionary(descriptor, dict);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("Reading the dictionary of column " + descriptor + " of " + file
          + " failed", e);
    }
    int size = dictionary.getMaxId() + 1;
    if (physical == PrimitiveTypeName.BINARY) {
      dictionaryBytes = new byte[size][];
      for (int id = 0; id < size; id++) {
        dictionaryBytes[id] = dictionary.decodeToBinary(id).getBytes();
      }
    } else {
      dictionaryLongs = new long[size];
      for (int id = 0; id < size; id++) {
        dictionaryLongs[id] = switch (physical) {
          case INT32 -> dictionary.decodeToInt(id);
          case DOUBLE -> Double.doubleToRawLongBits(dictionary.decodeToDouble(id));
          default -> dictionary.decodeToLong(id);
        };
      }
    }
  }

  private static int bitWidth(int maxLevel) {
    return 32 - Integer.numberOfLeadingZeros(maxLevel);
  }

  private static int readIntLe(byte[] b, int at) {
    return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16 | (b[at + 3] & 0xFF) << 24;
  }

  private static long readLongLe(byte[] b, int at) {
    return (readIntLe(b, at) & 0xFFFF_FFFFL) | (long) readIntLe(b, at + 4) << 32;
  }

  /**
   * The byte values of a run's rows: each row's start and length in one array. A dictionary entry is copied once
   * per run, and every row holding it shares its range (no copy per row, and equal ranges say equal values).
   */
  static final class ByteRanges {
    byte[] data;
    int used;
    final int[] starts;
    final int[] lengths;
    int count;
    /** Per entry of the dictionary in use, its start in {@link #data} plus one (0: not copied yet). */
    private int[] entryStarts;
    private byte[][] entriesOf;

    /** Room for {@code rows} values of {@code bytes} bytes in all before it grows. */
    ByteRanges(int rows, int bytes) {
      data = new byte[Math.max(1 << 10, bytes)];
      starts = new int[rows];
      lengths = new int[rows];
    }

    /** The next row's value: a copy of {@code b[from, from + length)}. */
    void append(byte[] b, int from, int length) {
      if (used + length > data.length) {
        data = Arrays.copyOf(data, Math.max(used + length, data.length * 2));
      }
      System.arraycopy(b, from, data, used, length);
      starts[count] = used;
      lengths[count++] = length;
      used += length;
    }

    /** The next row's value: dictionary entry {@code id}, copied at its first use in the run. */
    void entry(byte[][] dictionary, int id) {
      if (entriesOf != dictionary) {
        entriesOf = dictionary;
        entryStarts = new int[dictionary.length];
      }
      int start = entryStarts[id];
      byte[] v = dictionary[id];
      if (start == 0) {
        append(v, 0, v.length);
        entryStarts[id] = starts[count - 1] + 1;
        return;
      }
      starts[count] = start - 1;
      lengths[count++] = v.length;
    }

    /** The next row is null: an empty range. */
    void none() {
      starts[count] = used;
      lengths[count++] = 0;
    }
  }
}
