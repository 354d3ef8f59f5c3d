package dev.sluice.table.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.exceptions.ObjectAlreadyExistsException;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The behaviour every {@link ObjectStore} must have; subclasses supply a fresh, empty store per test. */
abstract class ObjectStoreContract {
  static final int RACE_THREADS = 8;
  static final int RACE_ROUNDS = 20;

  protected ObjectStore store;

  /** A new, empty store; closed after each test. */
  protected abstract ObjectStore newStore();

  @BeforeEach
  void openStore() {
    store = newStore();
  }

  @AfterEach
  void closeStore() {
    if (store != null) {   // null when newStore() skipped the test (no Docker engine for LocalStack)
      store.close();
    }
  }

  static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }

  List<String> keys(CloseableIterator<ObjectStatus> it) {
    return it.toList().stream().map(ObjectStatus::key).collect(Collectors.toList());
  }

  private static final List<String> LAYOUT = List.of(
      "_delta_log/00000000000000000000.json",
      "_delta_log/00000000000000000001.json",
      "_delta_log/00000000000000000002.checkpoint.parquet",
      "_delta_log/00000000000000000002.json",
      "_delta_log/00000000000000000010.json",
      "_delta_log/_last_checkpoint",
      "a=1/part-1.parquet",
      "a=10/part-2.parquet",
      "a=2/x/y/part-3.parquet",
      "part-0.parquet");

  private void writeLayout() {
    List<String> shuffled = new ArrayList<>(LAYOUT);
    Collections.shuffle(shuffled, new Random(7));
    for (String key : shuffled) {
      store.create(key, bytes(key));
    }
  }

  @Test
  void listsEverythingInKeyOrderAtAnyDepth() {
    writeLayout();

    List<ObjectStatus> all = store.list("").toList();

    assertThat(all).extracting(ObjectStatus::key).containsExactlyElementsOf(LAYOUT);
    assertThat(all.get(0).size()).isEqualTo(LAYOUT.get(0).length());
    assertThat(all.get(0).name()).isEqualTo("00000000000000000000.json");
  }

  @Test
  void listsByFolderAndByPartialName() {
    writeLayout();

    assertThat(keys(store.list("_delta_log/"))).containsExactlyElementsOf(LAYOUT.subList(0, 6));
    assertThat(keys(store.list("a=1"))).containsExactly("a=1/part-1.parquet", "a=10/part-2.parquet");
    assertThat(keys(store.list("a=2/x/"))).containsExactly("a=2/x/y/part-3.parquet");
    assertThat(keys(store.list("_delta_log/0000000000000000000"))).containsExactlyElementsOf(LAYOUT.subList(0, 4));
    assertThat(keys(store.list("missing/"))).isEmpty();
    assertThat(keys(store.list("part-0.parquet/"))).isEmpty();
  }

  @Test
  void startFromIsInclusiveAndMayLieBetweenKeys() {
    writeLayout();

    assertThat(keys(store.list("_delta_log/", "_delta_log/00000000000000000002.json")))
        .containsExactly("_delta_log/00000000000000000002.json", "_delta_log/00000000000000000010.json",
            "_delta_log/_last_checkpoint");
    assertThat(keys(store.list("_delta_log/", "_delta_log/00000000000000000002")))
        .containsExactlyElementsOf(LAYOUT.subList(2, 6));
    assertThat(keys(store.list("_delta_log/", "_delta_log/00000000000000000003")))
        .containsExactly("_delta_log/00000000000000000010.json", "_delta_log/_last_checkpoint");
    assertThat(keys(store.list("", "a=2/"))).containsExactly("a=2/x/y/part-3.parquet", "part-0.parquet");
    assertThat(keys(store.list("_delta_log/", ""))).containsExactlyElementsOf(LAYOUT.subList(0, 6));
    assertThat(keys(store.list("_delta_log/", "z"))).isEmpty();
  }

  @Test
  void listsManyKeysAcrossPagesLazily() {
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      String key = String.format("log/%05d.json", i);
      store.overwrite(key, bytes("v" + i));
      expected.add(key);
    }

    assertThat(keys(store.list("log/"))).containsExactlyElementsOf(expected);
    assertThat(keys(store.list("log/", "log/00013.json"))).containsExactlyElementsOf(expected.subList(13, 25));
    try (CloseableIterator<ObjectStatus> it = store.list("log/", "log/00007")) {
      assertThat(it.next().key()).isEqualTo("log/00007.json");
      assertThat(it.next().key()).isEqualTo("log/00008.json");
    }
  }

  @Test
  void readsWholeObjectsRangesAndStreams() throws Exception {
    store.create("dir/file.bin", bytes("0123456789"));

    assertThat(store.read("dir/file.bin")).isEqualTo(bytes("0123456789"));
    assertThat(store.readRange("dir/file.bin", 0, 3)).isEqualTo(bytes("012"));
    assertThat(store.readRange("dir/file.bin", 4, 3)).isEqualTo(bytes("456"));
    assertThat(store.readRange("dir/file.bin", 8, 10)).isEqualTo(bytes("89"));
    assertThat(store.readRange("dir/file.bin", 10, 5)).isEmpty();
    assertThat(store.readRange("dir/file.bin", 50, 5)).isEmpty();
    assertThat(store.readRange("dir/file.bin", 3, 0)).isEmpty();
    try (InputStream in = store.open("dir/file.bin")) {
      assertThat(in.readAllBytes()).isEqualTo(bytes("0123456789"));
    }
    try (InputStream in = store.open("dir/file.bin")) {
      assertThat(in.read()).isEqualTo('0');
    }
  }

  @Test
  void readingAMissingObjectFailsNamingIt() {
    String uri = store.uriOf("missing/key.json").toString();
    String message = "Cannot read " + uri + ": it does not exist";

    assertThatThrownBy(() -> store.read("missing/key.json"))
        .isInstanceOf(ObjectNotFoundException.class).hasMessage(message);
    assertThatThrownBy(() -> store.readRange("missing/key.json", 0, 10))
        .isInstanceOf(ObjectNotFoundException.class).hasMessage(message);
    assertThatThrownBy(() -> store.readRange("missing/key.json", 0, 0))
        .isInstanceOf(ObjectNotFoundException.class).hasMessage(message);
    assertThatThrownBy(() -> store.open("missing/key.json"))
        .isInstanceOf(ObjectNotFoundException.class).hasMessage(message);
  }

  @Test
  void statusGivesSizeAndTimeOrEmpty() {
    long before = System.currentTimeMillis();
    store.create("a/b.txt", bytes("hello"));

    ObjectStatus status = store.status("a/b.txt").orElseThrow();

    assertThat(status.key()).isEqualTo("a/b.txt");
    assertThat(status.size()).isEqualTo(5);
    // S3 keeps seconds only; allow for that and for clock granularity
    assertThat(status.modificationTime()).isBetween(before - 2_000, System.currentTimeMillis() + 2_000);
    assertThat(store.status("a/missing.txt")).isEmpty();
    assertThat(store.status("a")).isEmpty();
  }

  @Test
  void createFailsWhenTheObjectExistsAndKeepsTheFirst() {
    store.create("_delta_log/00000000000000000000.json", bytes("first"));

    assertThatThrownBy(() -> store.create("_delta_log/00000000000000000000.json", bytes("second")))
        .isInstanceOf(ObjectAlreadyExistsException.class)
        .hasMessage("Cannot create " + store.uriOf("_delta_log/00000000000000000000.json") + ": it already exists");
    assertThat(store.read("_delta_log/00000000000000000000.json")).isEqualTo(bytes("first"));
  }

  @Test
  void createWritesEmptyObjects() {
    store.create("empty", new byte[0]);

    assertThat(store.read("empty")).isEmpty();
    assertThat(store.status("empty").orElseThrow().size()).isZero();
  }

  @Test
  void overwriteReplacesOrCreates() {
    store.overwrite("_delta_log/_last_checkpoint", bytes("one"));
    store.overwrite("_delta_log/_last_checkpoint", bytes("two!"));

    assertThat(store.read("_delta_log/_last_checkpoint")).isEqualTo(bytes("two!"));
    assertThat(store.status("_delta_log/_last_checkpoint").orElseThrow().size()).isEqualTo(4);
  }

  @Test
  void outputStreamBecomesVisibleOnlyOnClose() throws Exception {
    store.create("old.parquet", bytes("old"));
    byte[] data = new byte[300_000];
    new Random(1).nextBytes(data);

    OutputStream out = store.newOutputStream("data/new.parquet");
    out.write(data, 0, 100_000);
    out.write(data[100_000]);
    out.write(data, 100_001, data.length - 100_001);
    out.flush();
    assertThat(store.status("data/new.parquet")).isEmpty();
    assertThat(keys(store.list("data/"))).isEmpty();
    out.close();
    out.close();

    assertThat(store.read("data/new.parquet")).isEqualTo(data);
    try (OutputStream replace = store.newOutputStream("old.parquet")) {
      replace.write(bytes("new"));
      assertThat(store.read("old.parquet")).isEqualTo(bytes("old"));
    }
    assertThat(store.read("old.parquet")).isEqualTo(bytes("new"));
  }

  @Test
  void deletesIgnoringMissingObjects() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      keys.add("t/f" + i);
      store.create("t/f" + i, bytes("x"));
    }

    store.delete("t/f0");
    store.delete("t/f0");
    store.delete("t/never");
    assertThat(keys(store.list("t/"))).containsExactly("t/f1", "t/f2", "t/f3", "t/f4");

    store.deleteAll(List.of("t/f1", "t/f2", "t/f2", "t/never", "t/f0"));
    assertThat(keys(store.list("t/"))).containsExactly("t/f3", "t/f4");
    store.deleteAll(List.of());
    store.deleteAll(keys);
    assertThat(keys(store.list(""))).isEmpty();
  }

  @Test
  void rejectsKeysThatEscapeTheRootOrAreAmbiguous() {
    for (String bad : List.of("", "/abs", "a//b", "a/../../etc", "./a", "dir/")) {
      assertThatThrownBy(() -> store.create(bad, bytes("x")))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("key");
    }
  }

  @Test
  void rootEndsWithSlashAndResolvesKeys() {
    assertThat(store.root().toString()).endsWith("/");
    assertThat(store.uriOf("a b/c.json").getScheme()).isEqualTo(store.root().getScheme());
    assertThat(store.uriOf("a b/c.json").getRawPath()).isEqualTo(store.root().getRawPath() + "a%20b/c.json");
    assertThat(store.keyOf(store.uriOf("a b/c.json"))).contains("a b/c.json");
  }

  @Test
  void exactlyOneOfManyConcurrentCreatorsWins() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(RACE_THREADS);
    try {
      for (int round = 0; round < RACE_ROUNDS; round++) {
        String key = String.format("_delta_log/%020d.json", round);
        CyclicBarrier start = new CyclicBarrier(RACE_THREADS);
        ConcurrentLinkedQueue<Integer> winners = new ConcurrentLinkedQueue<>();
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < RACE_THREADS; t++) {
          int writer = t;
          futures.add(pool.submit(() -> {
            start.await();
            try {
              store.create(key, bytes("writer " + writer));
              winners.add(writer);
            } catch (ObjectAlreadyExistsException lost) {
              // expected for all but one
            }
            return null;
          }));
        }
        for (Future<?> f : futures) {
          f.get(30, TimeUnit.SECONDS);
        }
        assertThat(winners).as("winners of round %d", round).hasSize(1);
        assertThat(store.read(key)).isEqualTo(bytes("writer " + winners.peek()));
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
