package dev.sluice.ingestion.internal.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.Row;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Rows read ahead on another thread arrive all and in order, from an iterator or from a source that fills its own
 * blocks, whatever their count against the block size; the source's end callback runs once; a failing source's
 * error reaches the reader after the rows before it.
 */
class ReadAheadTest {
  private static final int BLOCK = 16;

  private static List<Row> rows(int n) {
    List<Row> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(Row.of((long) i));
    }
    return out;
  }

  /** A source that fills its blocks itself (short only at the end). */
  private static ReadAhead.Blocks blocksOf(List<Row> rows) {
    Iterator<Row> it = rows.iterator();
    return into -> {
      int n = 0;
      while (n < into.length && it.hasNext()) {
        into[n++] = it.next();
      }
      return n;
    };
  }

  private static List<Long> drain(Iterator<Row> it) {
    List<Long> out = new ArrayList<>();
    it.forEachRemaining(r -> out.add((Long) r.get(0)));
    return out;
  }

  @Test
  void everyRowArrivesInOrderFromEitherKindOfSource() throws InterruptedException {
    for (int n : new int[] {0, 1, BLOCK - 1, BLOCK, BLOCK + 1, 3 * BLOCK, 3 * BLOCK + 5}) {
      List<Row> rows = rows(n);
      List<Long> expected = drain(rows.iterator());
      CountDownLatch ended = new CountDownLatch(2);
      AtomicInteger ends = new AtomicInteger();
      Runnable done = () -> {
        ends.incrementAndGet();
        ended.countDown();
      };
      assertThat(drain(new ReadAhead(rows.iterator(), BLOCK, done))).as("%d rows, iterator", n).isEqualTo(expected);
      assertThat(drain(new ReadAhead(blocksOf(rows), BLOCK, done))).as("%d rows, blocks", n).isEqualTo(expected);
      assertThat(ended.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(ends.get()).as("each source's end ran once").isEqualTo(2);
    }
  }

  @Test
  void aSourceThatFailsHandsItsErrorToTheReaderAfterTheRowsBefore() {
    Iterator<Row> rows = rows(3 * BLOCK).iterator();
    AtomicInteger read = new AtomicInteger();
    ReadAhead.Blocks failing = into -> {
      if (read.get() >= 2 * BLOCK) {
        throw new IllegalStateException("the file ended early");
      }
      for (int i = 0; i < into.length; i++) {
        into[i] = rows.next();
      }
      read.addAndGet(into.length);
      return into.length;
    };
    ReadAhead ahead = new ReadAhead(failing, BLOCK, () -> {});
    List<Long> got = new ArrayList<>();
    assertThatThrownBy(() -> {
      while (ahead.hasNext()) {
        got.add((Long) ahead.next().get(0));
      }
    }).isInstanceOf(IllegalStateException.class).hasMessage("the file ended early");
    assertThat(got).hasSize(2 * BLOCK).startsWith(0L, 1L).endsWith((long) (2 * BLOCK - 1));
  }
}
