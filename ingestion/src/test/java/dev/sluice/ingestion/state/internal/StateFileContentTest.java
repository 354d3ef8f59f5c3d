package dev.sluice.ingestion.state.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.internal.spill.SpillOptions;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import dev.sluice.table.storage.LocalObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateFileContentTest {
  static final StructType KEY = StructType.empty().add("id", PrimitiveType.STRING);
  static final StructType VALUE = StructType.empty().add("n", PrimitiveType.LONG);

  @TempDir
  Path dir;
  String previousSpillDir;

  @BeforeEach
  void spillIntoTheTestFolder() {
    previousSpillDir = System.getProperty(SpillOptions.DIRECTORY_PROPERTY);
    System.setProperty(SpillOptions.DIRECTORY_PROPERTY, dir.resolve("spill").toString());
  }

  @AfterEach
  void restore() {
    if (previousSpillDir == null) {
      System.clearProperty(SpillOptions.DIRECTORY_PROPERTY);
    } else {
      System.setProperty(SpillOptions.DIRECTORY_PROPERTY, previousSpillDir);
    }
  }

  StateFileFormat.Writer writerOf(int records) {
    StateFileFormat.Writer w = new StateFileFormat.Writer(StateFileFormat.DELTA, Compression.NONE,
        new StructCodec(KEY, "key"), new StructCodec(VALUE, "value"));
    for (int i = 0; i < records; i++) {
      w.put(Row.of("order-" + i + "-padding-to-make-the-record-longer"), Row.of((long) i));
    }
    return w;
  }

  long spillFiles() throws IOException {
    Path spill = dir.resolve("spill");
    if (!Files.isDirectory(spill)) {
      return 0;
    }
    try (Stream<Path> s = Files.list(spill)) {
      return s.count();
    }
  }

  @Test
  void aFileLargerThanTheHeapLimitGoesThroughLocalDiskAndReadsBackWhole() throws IOException {
    StateFileFormat.Writer w = writerOf(300_000);
    assertThat(spillFiles()).as("the changelog passed %d bytes while written", StateFileContent.HEAP_LIMIT).isOne();
    StateFileContent content = w.finish();
    assertThat(content.size()).isGreaterThan(StateFileContent.HEAP_LIMIT);

    LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
    content.writeTo(store, "state/0/0/1.delta");
    assertThat(spillFiles()).as("the spill file is deleted once uploaded").isZero();
    assertThat(Files.size(dir.resolve("store/state/0/0/1.delta"))).isEqualTo(content.size());

    AtomicLong puts = new AtomicLong();
    try (InputStream in = store.open("state/0/0/1.delta")) {
      StateFileFormat.read(in, StateFileFormat.DELTA, new StructCodec(KEY, "key"), new StructCodec(VALUE, "value"),
          new StateFileFormat.Visitor() {
            @Override
            public void put(byte[] key, byte[] value) {
              puts.incrementAndGet();
            }

            @Override
            public void remove(byte[] key) {}
          });
    }
    assertThat(puts).hasValue(300_000);
  }

  @Test
  void aSmallFileStaysInTheHeapAndADiscardedLargeOneLeavesNothing() throws IOException {
    StateFileContent small = writerOf(10).finish();
    assertThat(spillFiles()).isZero();
    assertThat(small.toByteArray()).hasSize((int) small.size());

    StateFileFormat.Writer large = writerOf(300_000);
    assertThat(spillFiles()).isOne();
    large.discard();
    assertThat(spillFiles()).as("an aborted version's changelog leaves no spill file").isZero();
  }
}
