package dev.sluice.table.internal.parquet;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;

/**
 * Parquet's dictionary encoding of an INT64 column (timestamps, decimals of up to 18 digits, longs), with the
 * dictionary as an open-addressing table over two arrays instead of parquet's {@code Long2IntLinkedOpenHashMap}
 * (whose links it keeps for the dictionary's order cost a store per insert and a pointer chase per page), and a
 * value equal to the one written before (bronze's {@code _ingested_at}, one per batch) taking its id without a
 * lookup. In the 2 M-event bronze stage parquet's map and its fall-back were ~14 % of the encoder threads' samples.
 *
 * <p>The pages are parquet's: the same ids in the same order (first appearance), the same dictionary page, the same
 * fall-back to plain encoding when the dictionary outgrows its page size or doesn't pay; only a column whose first
 * 4,096 values are all distinct falls back at once, where parquet hashes its whole first page first
 * ({@link DictionarySlots#allDistinct}).
 */
final class LongDictionaryWriter extends DictionaryValuesWriter {
  /** Id → value, in order of first appearance (the dictionary page's order). */
  private long[] entries = new long[256];
  private int size;
  private final DictionarySlots slots = new DictionarySlots();
  private final IntUnaryOperator hashOfId = id -> hash(entries[id]);
  private long last;
  private int lastId = -1;

  LongDictionaryWriter(int maxDictionaryByteSize, Encoding dataPage, Encoding dictionaryPage,
      ByteBufferAllocator allocator) {
    super(maxDictionaryByteSize, dataPage, dictionaryPage, allocator);
  }

  @Override
  public void writeLong(long v) {
    if (lastId < 0 || v != last) {
      lastId = idOf(v);
      last = v;
    }
    encodedValues.add(lastId);
  }

  private int idOf(long v) {
    int mask = slots.mask();
    for (int s = hash(v) & mask; ; s = (s + 1) & mask) {
      int entry = slots.at(s);
      if (entry == DictionarySlots.FREE) {
        int id = add(v);
        slots.put(s, id, hashOfId);
        return id;
      }
      if (entries[entry - 1] == v) {
        return entry - 1;
      }
    }
  }

  /** Timestamps and amounts differ in their low bits: a multiplicative mix spreads them over the slots. */
  private static int hash(long v) {
    long h = v * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }

  private int add(long v) {
    if (size == entries.length) {
      entries = Arrays.copyOf(entries, size * 2);
    }
    entries[size] = v;
    dictionaryByteSize += 8; // a plain INT64 value
    return size++;
  }

  @Override
  public DictionaryPage toDictPageAndClose() {
    if (lastUsedDictionarySize == 0) {
      return null;
    }
    PlainValuesWriter page = new PlainValuesWriter(lastUsedDictionaryByteSize, maxDictionaryByteSize, allocator);
    for (int id = 0; id < lastUsedDictionarySize; id++) {
      page.writeLong(entries[id]);
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
    slots.clear();
    lastId = -1;
  }

  @Override
  public void fallBackDictionaryEncodedData(ValuesWriter writer) {
    var ids = encodedValues.iterator();
    while (ids.hasNext()) {
      writer.writeLong(entries[ids.next()]);
    }
  }
}
