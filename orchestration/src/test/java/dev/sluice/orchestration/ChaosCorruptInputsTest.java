package dev.sluice.orchestration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.SluiceSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Broken files in a warehouse the orders example has run on: the next run either fails with an error that names
 * the broken file, or it falls back safely and every layer still equals the oracle. Never silently wrong output.
 */
class ChaosCorruptInputsTest {
  @TempDir static Path root;
  /** The paths are part of the bronze plan: every test works in the same folder, restored from {@code pristine}. */
  private static Path work;
  private static Path pristine;

  /** One warehouse the example ran on twice (so there are several batches, versions and state versions), copied per test. */
  @BeforeAll
  static void runOnce() throws IOException {
    work = root.resolve("work");
    pristine = root.resolve("pristine");
    Files.createDirectories(work);
    OrdersScenario s = new OrdersScenario(work, work.resolve("warehouse").toUri().toString(), Map.of());
    s.land(3, 100);
    try (SluiceSession session = Sessions.forConfig(s.config)) {
      assertThat(s.run(session)).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
      s.land(2, 60);
      assertThat(s.run(session)).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
    }
    copy(work, pristine);
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  enum Corruption {
    TRUNCATED_COMMIT_JSON("silver/orders", "_delta_log"),
    GARBAGE_LAST_CHECKPOINT("bronze/orders", "_last_checkpoint"),
    MISSING_DATA_FILE("silver/orders", ".parquet"),
    CORRUPT_OFFSETS("bronze/orders", "offsets"),
    CORRUPT_COMMITS("silver/orders", "commits"),
    DELETED_SILVER_STATE("silver/orders", "state"),
    DELETED_GOLD_STATE("gold/revenue", "state");

    final String table;
    final String named;

    Corruption(String table, String named) {
      this.table = table;
      this.named = named;
    }
  }

  @ParameterizedTest
  @EnumSource(Corruption.class)
  void aBrokenFileIsNamedOrSafelyRecovered(Corruption c) throws IOException {
    try (Stream<Path> all = Files.walk(work)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    copy(pristine, work);
    Path dir = work;
    OrdersScenario s = new OrdersScenario(dir, dir.resolve("warehouse").toUri().toString(), Map.of());
    s.landedBefore(5);
    Path table = dir.resolve("warehouse").resolve(c.table);
    Path broken;
    try (SluiceSession session = Sessions.forConfig(s.config)) {
      broken = corrupt(c, table, s.table(session, c.table));
    }
    s.land(1, 50);
    try (SluiceSession session = Sessions.forConfig(s.config)) {
      List<String> errors = new ArrayList<>();
      for (PipelineRunner.RunResult r : s.run(session)) {
        r.failure().ifPresent(e -> errors.add(r.pipeline() + ": " + messages(e)));
      }
      System.out.println("chaos corrupt " + c + " (" + dir.relativize(broken) + "): " + (errors.isEmpty()
          ? "recovered" : errors));
      if (errors.isEmpty()) {
        // a fallback must be a safe one: the layers equal the oracle, or reading them fails naming the file
        try {
          s.check(session);
        } catch (dev.sluice.table.exceptions.SluiceTableException e) {
          assertThat(e).hasMessageContaining(broken.getFileName().toString());
          System.out.println("  reading then fails, naming the file: " + e.getMessage());
        }
      } else {
        String first = errors.get(0);
        assertThat(first).as("the error names the broken file").contains(broken.getFileName().toString());
      }
    }
  }

  private static String messages(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getMessage()).append(" | ");
    }
    return b.toString();
  }

  private static Path corrupt(Corruption c, Path table, dev.sluice.table.Table t) throws IOException {
    switch (c) {
      case TRUNCATED_COMMIT_JSON -> {
        Path last = newest(table.resolve("_delta_log"), "\\d{20}\\.json");
        byte[] bytes = Files.readAllBytes(last);
        Files.write(last, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        return last;
      }
      case GARBAGE_LAST_CHECKPOINT -> {
        Path f = table.resolve("_delta_log").resolve("_last_checkpoint");
        Files.writeString(f, "{\"version\": 7, \"size\": garbage", StandardCharsets.UTF_8);
        return f;
      }
      case MISSING_DATA_FILE -> {
        // a file of the latest version (one only older versions name would prove nothing)
        String key = t.latestSnapshot().files().get(0).key();
        Path f = Path.of(t.store().uriOf(key));
        Files.delete(f);
        return f;
      }
      case CORRUPT_OFFSETS, CORRUPT_COMMITS -> {
        Path folder = checkpoint(table).resolve(c == Corruption.CORRUPT_OFFSETS ? "offsets" : "commits");
        Path last = newest(folder, "\\d+");
        Files.writeString(last, "v1\n{not json", StandardCharsets.UTF_8);
        return last;
      }
      default -> {
        Path state = checkpoint(table).resolve("state");
        assertThat(state).as("the pipeline keeps state").isDirectory();
        try (Stream<Path> all = Files.walk(state)) {
          all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        return state;
      }
    }
  }

  private static Path checkpoint(Path table) throws IOException {
    try (Stream<Path> s = Files.list(table.resolve("_checkpoints"))) {
      return s.findFirst().orElseThrow();
    }
  }

  private static Path newest(Path folder, String pattern) throws IOException {
    try (Stream<Path> s = Files.list(folder)) {
      return s.filter(p -> p.getFileName().toString().matches(pattern))
          .max(Comparator.comparingLong(p -> Long.parseLong(p.getFileName().toString().replaceAll("\\D", ""))))
          .orElseThrow();
    }
  }
}
