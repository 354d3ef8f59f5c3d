package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class RecyclingAllocatorTest {
  @Test
  void aReleasedBufferServesTheNextRequestOfItsSizeAsIfNew() {
    RecyclingAllocator allocator = new RecyclingAllocator();
    ByteBuffer first = allocator.allocate(64);
    first.order(ByteOrder.LITTLE_ENDIAN).putLong(42).flip();
    allocator.release(first);
    assertThat(allocator.allocate(32)).as("another size").isNotSameAs(first);
    ByteBuffer again = allocator.allocate(64);
    assertThat(again).isSameAs(first);
    assertThat(again.position()).isZero();
    assertThat(again.limit()).isEqualTo(64);
    assertThat(again.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
    assertThat(allocator.allocate(64)).as("handed out once").isNotSameAs(first);
  }

  @Test
  void aBufferReleasedTwiceIsHandedOutOnceAndSlicesAreNotPooled() {
    RecyclingAllocator allocator = new RecyclingAllocator();
    ByteBuffer b = allocator.allocate(16);
    allocator.release(b);
    allocator.release(b);
    assertThat(allocator.allocate(16)).isSameAs(b);
    assertThat(allocator.allocate(16)).isNotSameAs(b);
    ByteBuffer slice = ByteBuffer.allocate(32).position(8).slice();
    allocator.release(slice);
    assertThat(allocator.allocate(24)).isNotSameAs(slice);
  }
}
