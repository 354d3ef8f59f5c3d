package dev.sluice.table.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.exceptions.StorageException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalObjectStoreTest extends ObjectStoreContract {
  @TempDir
  Path dir;

  @Override
  protected ObjectStore newStore() {
    return new LocalObjectStore(dir);
  }

  @Test
  void listingSkipsTemporaryFilesAndFolders() throws IOException {
    store.create("_delta_log/00000000000000000000.json", bytes("{}"));
    Files.write(dir.resolve("_delta_log/" + LocalObjectStore.TEMP_PREFIX + "00000000000000000001.json-x"), bytes("{"));
    Files.createDirectories(dir.resolve("empty/folder"));

    assertThat(keys(store.list(""))).containsExactly("_delta_log/00000000000000000000.json");
    assertThatThrownBy(() -> store.create("_delta_log/" + LocalObjectStore.TEMP_PREFIX + "x", bytes("x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Object key '_delta_log/.sluice-tmp-x' is invalid: names starting with '.sluice-tmp-' are"
            + " reserved for the local store's temporary files");
  }

  @Test
  void writesLeaveNoTemporaryFilesBehind() throws Exception {
    store.create("a/x", bytes("1"));
    assertThatThrownBy(() -> store.create("a/x", bytes("2"))).isInstanceOf(StorageException.class);
    store.overwrite("a/y", bytes("3"));
    try (OutputStream out = store.newOutputStream("a/z")) {
      out.write(bytes("4"));
    }

    try (Stream<Path> files = Files.list(dir.resolve("a"))) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("x", "y", "z");
    }
  }

  @Test
  void outputStreamThatCannotBePublishedFailsOnCloseAndCleansUp() throws Exception {
    OutputStream out = store.newOutputStream("a/partial.parquet");
    out.write(bytes("some bytes"));
    // a non-empty folder where the file should go makes the final move fail
    Files.createDirectories(dir.resolve("a/partial.parquet/child"));

    assertThatThrownBy(out::close)
        .isInstanceOf(StorageException.class)
        .hasMessageStartingWith("Writing " + store.uriOf("a/partial.parquet") + " failed while publishing it: ");
    assertThat(store.status("a/partial.parquet")).isEmpty();
    try (Stream<Path> files = Files.list(dir.resolve("a"))) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("partial.parquet");
    }
  }

  @Test
  void listingAPrefixOutsideTheRootFails() {
    assertThatThrownBy(() -> store.list("../other/"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot list prefix '../other/' of " + store.root() + ": it leads outside the store");
  }

  @Test
  void exactlyOneOfTwoProcessesWinsEachRound() throws Exception {
    int rounds = 20;
    long slotMs = 40;
    Process child = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        CreateRaceMain.class.getName(), dir.toString(), "child", Integer.toString(rounds), Long.toString(slotMs))
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    try (BufferedReader childOut = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        Writer childIn = new java.io.OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8)) {
      assertThat(childOut.readLine()).isEqualTo("READY");
      long startAt = System.currentTimeMillis() + 200;
      childIn.write(startAt + "\n");
      childIn.flush();

      Set<Integer> parentWins = new HashSet<>(CreateRaceMain.race(store, "parent", rounds, slotMs, startAt));

      List<String> lines = new ArrayList<>();
      for (String line = childOut.readLine(); line != null; line = childOut.readLine()) {
        lines.add(line);
      }
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue()).as("child output %s", lines).isZero();
      Set<Integer> childWins = new HashSet<>();
      for (String line : lines) {
        if (line.startsWith("WON ")) {
          childWins.add(Integer.parseInt(line.substring(4)));
        }
      }
      for (int r = 0; r < rounds; r++) {
        assertThat(parentWins.contains(r) ^ childWins.contains(r)).as("exactly one winner in round %d", r).isTrue();
        String winner = parentWins.contains(r) ? "parent" : "child";
        assertThat(new String(store.read(CreateRaceMain.keyOf(r)), StandardCharsets.UTF_8)).isEqualTo(winner);
      }
    } finally {
      child.destroyForcibly();
    }
  }

  @Test
  void aPermissionProblemIsNamedNotJustItsPath() throws IOException {
    // chmod 000 does not stop root, who runs these tests in CI: the JDK's exception is built as the OS would raise it.
    assertThat(LocalObjectStore.reason(new java.nio.file.AccessDeniedException("/data/in/a.json")))
        .isEqualTo("permission denied on /data/in/a.json: the user running Sluice cannot access it; fix the file's"
            + " or its folder's permissions (e.g. chmod u+r, or chown to that user)");
    assertThat(LocalObjectStore.reason(new IOException("disk on fire"))).isEqualTo("disk on fire");
    Path file = Files.writeString(dir.resolve("locked.json"), "{}");
    Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("---------"));
    org.assertj.core.api.Assumptions.assumeThat(Files.isReadable(file)).as("chmod 000 blocks this user").isFalse();
    assertThatThrownBy(() -> new LocalObjectStore(dir).read("locked.json"))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("failed: permission denied on " + file);
  }
}
