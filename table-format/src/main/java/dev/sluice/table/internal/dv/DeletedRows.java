package dev.sluice.table.internal.dv;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.TreeMap;
import java.util.zip.CRC32;
import org.roaringbitmap.RoaringBitmap;

/**
 * The row indexes a deletion vector deletes: Delta's RoaringBitmapArray, 64-bit indexes split into a 32-bit
 * high key and a standard (portable) 32-bit RoaringBitmap of low halves. Serialised form, little-endian:
 * magic {@value #MAGIC}, the number of bitmaps (8 bytes), then per bitmap its key (4 bytes) and the bitmap.
 * In a DV file each one sits at its offset as: size (4 bytes, big-endian), the serialised form, CRC-32 of it
 * (4 bytes, big-endian); the file starts with a format version byte (1).
 */
public final class DeletedRows {
  static final int MAGIC = 1681511377;
  static final int NATIVE_MAGIC = 1681511376;
  private final TreeMap<Integer, RoaringBitmap> bitmaps;

  private DeletedRows(TreeMap<Integer, RoaringBitmap> bitmaps) {
    this.bitmaps = bitmaps;
  }

  /** Reads the serialised form (as inline DVs hold it), in either of the formats Delta has written. */
  public static DeletedRows deserialize(byte[] data) {
    if (data.length < 8) {
      throw new IllegalArgumentException("not a RoaringBitmapArray (" + data.length + " bytes)");
    }
    ByteBuffer in = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
    int magic = in.getInt();
    if (magic == MAGIC) {
      return portable(in);
    }
    in = ByteBuffer.wrap(data).order(ByteOrder.BIG_ENDIAN);
    if (in.getInt() == NATIVE_MAGIC) {
      return nativeFormat(in);
    }
    throw new IllegalArgumentException("not a RoaringBitmapArray (bad magic number)");
  }

  private static DeletedRows portable(ByteBuffer in) {
    long count = in.getLong();
    TreeMap<Integer, RoaringBitmap> out = new TreeMap<>();
    for (long i = 0; i < count; i++) {
      int key = in.getInt();
      out.put(key, bitmap(in, i));
    }
    return new DeletedRows(out);
  }

  /** The older framing (PROTOCOL.md's inline example): big-endian count, then each bitmap's size and bitmap, keys 0, 1, … */
  private static DeletedRows nativeFormat(ByteBuffer in) {
    int count = in.getInt();
    TreeMap<Integer, RoaringBitmap> out = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      int size = in.getInt();
      int start = in.position();
      out.put(i, bitmap(in, i));
      in.position(start + size);
    }
    return new DeletedRows(out);
  }

  private static RoaringBitmap bitmap(ByteBuffer in, long index) {
    RoaringBitmap bitmap = new RoaringBitmap();
    try {
      bitmap.deserialize(in.slice().order(ByteOrder.LITTLE_ENDIAN));
    } catch (java.io.IOException | RuntimeException e) {
      throw new IllegalArgumentException("bitmap " + index + " is damaged: " + e.getMessage(), e);
    }
    in.position(in.position() + bitmap.serializedSizeInBytes());
    return bitmap;
  }

  /** Reads one DV out of the bytes of a DV file region: size, data, CRC-32. */
  public static DeletedRows fromFileRegion(byte[] region, int expectedSize) {
    ByteBuffer in = ByteBuffer.wrap(region);
    int size = in.getInt();
    if (size != expectedSize || region.length < size + 8) {
      throw new IllegalArgumentException("the deletion vector's size is " + size + " bytes, the log says "
          + expectedSize);
    }
    byte[] data = new byte[size];
    in.get(data);
    int crc = in.getInt();
    CRC32 check = new CRC32();
    check.update(data);
    if ((int) check.getValue() != crc) {
      throw new IllegalArgumentException("the deletion vector's checksum does not match its data");
    }
    return deserialize(data);
  }

  /** The serialised form of these row indexes. */
  public static byte[] serialize(long... rowIndexes) {
    return of(rowIndexes).serialize();
  }

  /** No deleted rows. */
  public static DeletedRows empty() {
    return new DeletedRows(new TreeMap<>());
  }

  public static DeletedRows of(long... rowIndexes) {
    TreeMap<Integer, RoaringBitmap> byKey = new TreeMap<>();
    for (long r : rowIndexes) {
      byKey.computeIfAbsent((int) (r >>> 32), k -> new RoaringBitmap()).add((int) r);
    }
    return new DeletedRows(byKey);
  }

  /** The serialised form (portable RoaringBitmapArray, little-endian), as a DV file or an inline DV holds it. */
  public byte[] serialize() {
    int size = 12;
    for (RoaringBitmap b : bitmaps.values()) {
      b.runOptimize();
      size += 4 + b.serializedSizeInBytes();
    }
    ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(MAGIC).putLong(bitmaps.size());
    bitmaps.forEach((k, b) -> {
      out.putInt(k);
      ByteBuffer slice = out.slice().order(ByteOrder.LITTLE_ENDIAN);
      b.serialize(slice);
      out.position(out.position() + b.serializedSizeInBytes());
    });
    return out.array();
  }

  /** The rows deleted here or in {@code other}. */
  public DeletedRows union(DeletedRows other) {
    TreeMap<Integer, RoaringBitmap> out = copy();
    other.bitmaps.forEach((k, b) -> out.merge(k, b.clone(), (x, y) -> RoaringBitmap.or(x, y)));
    return new DeletedRows(out);
  }

  /** The rows deleted here but not in {@code older}: what a newer DV of a file deletes on top of an older one. */
  public DeletedRows minus(DeletedRows older) {
    TreeMap<Integer, RoaringBitmap> out = copy();
    older.bitmaps.forEach((k, b) -> {
      RoaringBitmap mine = out.get(k);
      if (mine != null) {
        mine.andNot(b);
      }
    });
    out.values().removeIf(RoaringBitmap::isEmpty);
    return new DeletedRows(out);
  }

  private TreeMap<Integer, RoaringBitmap> copy() {
    TreeMap<Integer, RoaringBitmap> out = new TreeMap<>();
    bitmaps.forEach((k, b) -> out.put(k, b.clone()));
    return out;
  }

  public boolean isEmpty() {
    return cardinality() == 0;
  }

  /** The greatest deleted row index (-1 when none). */
  public long maxRowIndex() {
    for (var e : bitmaps.descendingMap().entrySet()) {
      if (!e.getValue().isEmpty()) {
        return ((long) e.getKey() << 32) | Integer.toUnsignedLong(e.getValue().last());
      }
    }
    return -1;
  }

  /** Whether the row at {@code rowIndex} (its position in the data file, from 0) is deleted. */
  public boolean contains(long rowIndex) {
    RoaringBitmap b = bitmaps.get((int) (rowIndex >>> 32));
    return b != null && b.contains((int) rowIndex);
  }

  public long cardinality() {
    long n = 0;
    for (RoaringBitmap b : bitmaps.values()) {
      n += b.getLongCardinality();
    }
    return n;
  }
}
