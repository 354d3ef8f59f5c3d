package dev.sluice.table.internal.parquet;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.io.api.Binary;

/**
 * Parquet's dictionary encoding of a BINARY (string) column, with the dictionary as an open-addressing table over
 * one byte array instead of parquet's {@code Object2IntLinkedOpenHashMap<Binary>}: a lookup hashes the value's
 * bytes once and compares them with one {@link Arrays#equals} (no {@code Binary} objects to chase, no copy kept
 * per entry), and a value that is the very object written before (a file's {@code _source}, repeated rows of a
 * column: {@link ValueWriters} hands out one {@code Binary} per repeated {@code String}) takes the id of the last
 * value without any lookup. In the 2 M-event bronze stage parquet's map was ~16 % of the CPU samples.
 *
 * <p>The pages are parquet's: the same ids in the same order (first appearance), the same dictionary page, the same
 * fall-back to plain encoding when the dictionary outgrows its page size; only a column whose first 4,096 values are
 * all distinct falls back at once, where parquet hashes its whole first page first
 * ({@link DictionarySlots#allDistinct}).
 */
final class BinaryDictionaryWriter extends DictionaryValuesWriter {
  private byte[] bytes = new byte[4096];
  private int used;
  private int[] starts = new int[256];
  private int[] lengths = new int[256];
  private int[] hashes = new int[256];
  private int size;
  private final DictionarySlots slots = new DictionarySlots();
  private final IntUnaryOperator hashOfId = id -> hashes[id];
  private Binary last;
  private int lastId = -1;

  BinaryDictionaryWriter(int maxDictionaryByteSize, Encoding dataPage, Encoding dictionaryPage,
      ByteBufferAllocator allocator) {
    super(maxDictionaryByteSize, dataPage, dictionaryPage, allocator);
  }

  @Override
  public void writeBytes(Binary v) {
    if (v != last) {
      lastId = idOf(v);
      last = v;
    }
    encodedValues.add(lastId);
  }

  private int idOf(Binary v) {
    // The writers' binaries wrap a whole array (Binary.fromConstantByteArray), which this hands out without a copy
    // or the ByteBuffer a toByteBuffer() made per value; any other kind of binary is copied.
    byte[] array = v.getBytesUnsafe();
    int offset = 0;
    int length = v.length();
    int hash = hash(array, offset, length);
    int mask = slots.mask();
    for (int s = hash & mask; ; s = (s + 1) & mask) {
      int entry = slots.at(s);
      if (entry == DictionarySlots.FREE) {
        int id = add(array, offset, length, hash);
        slots.put(s, id, hashOfId);
        return id;
      }
      int id = entry - 1;
      if (hashes[id] == hash && lengths[id] == length
          && Arrays.equals(bytes, starts[id], starts[id] + length, array, offset, offset + length)) {
        return id;
      }
    }
  }

  private static int hash(byte[] a, int from, int length) {
    int h = length;
    for (int i = from, end = from + length; i < end; i++) {
      h = 31 * h + a[i];
    }
    return h ^ (h >>> 16) ^ (h >>> 7);
  }

  private int add(byte[] array, int offset, int length, int hash) {
    if (size == starts.length) {
      starts = Arrays.copyOf(starts, size * 2);
      lengths = Arrays.copyOf(lengths, size * 2);
      hashes = Arrays.copyOf(hashes, size * 2);
    }
    if (used + length > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, used + length));
    }
    System.arraycopy(array, offset, bytes, used, length);
    starts[size] = used;
    lengths[size] = length;
    hashes[size] = hash;
    used += length;
    dictionaryByteSize += 4L + length; // a plain BINARY value: its length as 4 bytes, then the bytes
    return size++;
  }

  private Binary entry(int id) {
    return Binary.fromConstantByteArray(bytes, starts[id], lengths[id]);
  }

  @Override
  public DictionaryPage toDictPageAndClose() {
    if (lastUsedDictionarySize == 0) {
      return null;
    }
    PlainValuesWriter page = new PlainValuesWriter(lastUsedDictionaryByteSize, maxDictionaryByteSize, allocator);
    for (int id = 0; id < lastUsedDictionarySize; id++) {
      page.writeBytes(entry(id));
    }
    return dictPage(page);
  }

  @Override
  public int getDictionarySize() {
    return size;
  }

  @Override
  public boolean shouldFallBack() {
    return super.shouldFallBack()
        || lastUsedDictionarySize == 0 && DictionarySlots.allDistinct(size, encodedValues.size());
  }

  @Override
  protected void clearDictionaryContent() {
    size = 0;
    used = 0;
    slots.clear();
    last = null;
    lastId = -1;
  }

  @Override
  public void fallBackDictionaryEncodedData(ValuesWriter writer) {
    Binary[] values = new Binary[size];
    for (int id = 0; id < size; id++) {
      values[id] = entry(id);
    }
    var ids = encodedValues.iterator();
    while (ids.hasNext()) {
      writer.writeBytes(values[ids.next()]);
    }
  }
}
