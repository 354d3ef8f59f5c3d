package dev.sluice.table.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.exceptions.StorageOutcomeUnknownException;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStatus;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FailingObjectStoreTest {
  @TempDir
  Path dir;

  @Test
  void failsTheNthCreateBeforeWriting() {
    FailingObjectStore store = new FailingObjectStore(new LocalObjectStore(dir)).failNthCreate(2);

    store.create("a", new byte[] {1});
    assertThatThrownBy(() -> store.create("b", new byte[] {2}))
        .isExactlyInstanceOf(StorageException.class)
        .hasMessage("Creating " + store.uriOf("b") + " failed: injected failure (call 2)");
    store.create("c", new byte[] {3});

    assertThat(store.status("b")).isEmpty();
    assertThat(store.status("c")).isPresent();
    assertThat(store.createCount()).isEqualTo(3);
  }

  @Test
  void timesOutAfterWritingTheNthCreate() {
    FailingObjectStore store = new FailingObjectStore(new LocalObjectStore(dir)).timeoutAfterNthCreate(1);

    assertThatThrownBy(() -> store.create("a", new byte[] {1}))
        .isInstanceOf(StorageOutcomeUnknownException.class)
        .hasMessage("Creating " + store.uriOf("a") + " may or may not have taken effect: injected timeout after the"
            + " write (call 1)");
    assertThat(store.read("a")).containsExactly(1);
  }

  @Test
  void failsMatchingReadsAndOverwritesUntilReset() throws Exception {
    FailingObjectStore store = new FailingObjectStore(new LocalObjectStore(dir))
        .failReadsMatching(k -> k.endsWith(".json"))
        .failOverwritesMatching(k -> k.startsWith("_delta_log/_last"));
    store.create("x.json", new byte[] {1});
    store.create("x.bin", new byte[] {2});

    assertThatThrownBy(() -> store.read("x.json"))
        .isExactlyInstanceOf(StorageException.class)
        .hasMessage("Reading " + store.uriOf("x.json") + " failed: injected failure");
    assertThatThrownBy(() -> store.readRange("x.json", 0, 1)).isExactlyInstanceOf(StorageException.class);
    assertThatThrownBy(() -> store.open("x.json")).isExactlyInstanceOf(StorageException.class);
    assertThat(store.read("x.bin")).containsExactly(2);
    assertThatThrownBy(() -> store.overwrite("_delta_log/_last_checkpoint", new byte[] {3}))
        .isExactlyInstanceOf(StorageException.class)
        .hasMessage("Writing " + store.uriOf("_delta_log/_last_checkpoint") + " failed: injected failure");
    assertThat(store.status("_delta_log/_last_checkpoint")).isEmpty();

    store.reset();
    assertThat(store.read("x.json")).containsExactly(1);
    assertThat(store.readCount()).isEqualTo(5);
    assertThat(store.overwriteCount()).isEqualTo(1);
  }

  @Test
  void countsOpenStreamsAndListingsAndDelegatesTheRest() throws Exception {
    FailingObjectStore store = new FailingObjectStore(new LocalObjectStore(dir));
    OutputStream out = store.newOutputStream("d/f");
    out.write(new byte[] {4, 5});
    CloseableIterator<ObjectStatus> listing = store.list("d/");
    assertThat(store.openResourceCount()).isEqualTo(2);
    out.close();
    listing.close();
    InputStream in = store.open("d/f");
    assertThat(store.openResourceCount()).isEqualTo(1);
    assertThat(in.readAllBytes()).containsExactly(4, 5);
    in.close();
    in.close();

    assertThat(store.openResourceCount()).isZero();
    store.deleteAll(List.of("d/f", "d/g"));
    store.delete("d/h");
    assertThat(store.deleteCount()).isEqualTo(3);
    assertThat(store.listCount()).isEqualTo(1);
    assertThat(store.root()).isEqualTo(store.delegate().root());
  }
}
