package dev.sluice.ingestion.source.internal.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.DataFile;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.DecodedRows;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Runs decoded ahead come in the files' order, a file that can't be decoded in its place; a failure reaches the
 * reader; a reader that stops early stops the decoder, which closes the file it was reading.
 */
class DecodedRunsAheadTest {
  private static final StructType SCHEMA = StructType.of(StructField.of("id", PrimitiveType.LONG));

  private static DataFile file(int i) {
    return new DataFile("f" + i, "f" + i, Map.of(), 100, 0, java.util.OptionalLong.empty(), null);
  }

  /** File {@code i}'s runs: {@code i % 3} runs of one row holding {@code i * 10 + run}; file 4 can't be decoded. */
  private static Optional<CloseableIterator<DecodedRows>> runs(DataFile f, AtomicInteger closed) {
    int i = Integer.parseInt(f.key().substring(1));
    if (i == 4) {
      return Optional.empty();
    }
    return Optional.of(new CloseableIterator<>() {
      private int run;

      @Override
      public boolean hasNext() {
        return run < i % 3;
      }

      @Override
      public DecodedRows next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        long value = i * 10L + run++;
        return new DecodedRows(SCHEMA, 1, new long[][] {{value}}, new byte[1][], new int[1][], new int[1][],
            new long[1][]);
      }

      @Override
      public void close() {
        closed.incrementAndGet();
      }
    });
  }

  @Test
  void runsComeInTheFilesOrderWithAnUndecodableFileInItsPlace() {
    List<DataFile> files = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      files.add(file(i));
    }
    AtomicInteger closed = new AtomicInteger();
    List<String> seen = new ArrayList<>();
    try (DecodedRunsAhead ahead = new DecodedRunsAhead(files, f -> runs(f, closed))) {
      Object item;
      while ((item = ahead.next()) != null) {
        seen.add(item instanceof DecodedRows r ? Long.toString(r.longs(0)[0]) : ((DataFile) item).key());
      }
      assertThat(ahead.next()).isNull();
    }
    assertThat(seen).containsExactly("10", "20", "21", "f4", "50", "51", "70", "80", "81");
    assertThat(closed).hasValue(8);
  }

  @Test
  void aFailureToDecodeReachesTheReaderAfterTheRunsBeforeIt() {
    List<DataFile> files = List.of(file(1), file(2), file(3));
    try (DecodedRunsAhead ahead = new DecodedRunsAhead(files, f -> {
      if (f.key().equals("f3")) {
        throw new IllegalStateException("corrupt page in f3");
      }
      return runs(f, new AtomicInteger());
    })) {
      assertThat(((DecodedRows) ahead.next()).longs(0)[0]).isEqualTo(10);
      assertThat(((DecodedRows) ahead.next()).longs(0)[0]).isEqualTo(20);
      assertThat(((DecodedRows) ahead.next()).longs(0)[0]).isEqualTo(21);
      assertThatThrownBy(ahead::next).isInstanceOf(IllegalStateException.class).hasMessage("corrupt page in f3");
      assertThat(ahead.next()).isNull();
    }
  }

  @Test
  void aReaderThatStopsEarlyStopsTheDecoderWhichClosesItsFile() throws InterruptedException {
    CountDownLatch fileClosed = new CountDownLatch(1);
    AtomicInteger made = new AtomicInteger();
    CloseableIterator<DecodedRows> endless = new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return true;
      }

      @Override
      public DecodedRows next() {
        return new DecodedRows(SCHEMA, 1, new long[][] {{made.getAndIncrement()}}, new byte[1][], new int[1][],
            new int[1][], new long[1][]);
      }

      @Override
      public void close() {
        fileClosed.countDown();
      }
    };
    try (DecodedRunsAhead ahead = new DecodedRunsAhead(List.of(file(0)), f -> Optional.of(endless))) {
      assertThat(((DecodedRows) ahead.next()).longs(0)[0]).isZero();
    }
    assertThat(fileClosed.await(5, TimeUnit.SECONDS)).as("the decoder closed its file").isTrue();
    // The one read, one waiting, one being handed over when the reader stopped (the room it left), one more at most.
    assertThat(made.get()).as("runs decoded ahead of the reader").isLessThanOrEqualTo(4);
  }
}
