package dev.sluice.table.internal.parquet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.bytes.ByteBufferAllocator;

/**
 * One file writer's heap buffers, handed out again once Parquet released them. Its column writers allocate their
 * slabs afresh for every page and release them after it ({@code CapacityByteArrayOutputStream}), ~0.3 GB of the
 * 2 M-event medallion's allocations; the sizes repeat page after page. Parquet reads a buffer it released only until
 * its next allocation (a dictionary page is compressed, and so copied, right after its writer closed), and a writer
 * runs on one thread at a time: not thread-safe. A buffer released twice is pooled once.
 */
final class RecyclingAllocator implements ByteBufferAllocator {
  private final Map<Integer, ArrayDeque<ByteBuffer>> free = new HashMap<>();
  private final Set<ByteBuffer> pooled = Collections.newSetFromMap(new IdentityHashMap<>());

  @Override
  public ByteBuffer allocate(int size) {
    ArrayDeque<ByteBuffer> sized = free.get(size);
    ByteBuffer b = sized == null ? null : sized.pollLast();
    if (b == null) {
      return ByteBuffer.allocate(size);
    }
    pooled.remove(b);
    b.clear();
    return b.order(ByteOrder.BIG_ENDIAN);
  }

  @Override
  public void release(ByteBuffer b) {
    if (!b.isDirect() && b.hasArray() && b.arrayOffset() == 0 && b.capacity() == b.array().length && pooled.add(b)) {
      free.computeIfAbsent(b.capacity(), k -> new ArrayDeque<>()).addLast(b);
    }
  }

  @Override
  public boolean isDirect() {
    return false;
  }
}
