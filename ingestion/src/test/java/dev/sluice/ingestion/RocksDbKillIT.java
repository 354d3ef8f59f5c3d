package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.EventStreams.Event;
import dev.sluice.ingestion.EventStreams.OracleBatch;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SIGKILL of a RocksDB-backed query in the middle of a state commit (before its changelog is written) and of a
 * snapshot upload (half an SST file written; every SST written but not the zip), at different batches, each
 * followed by a restart in a fresh process with a fresh local working directory: the final output and late rows
 * equal the oracle's, exactly once.
 */
class RocksDbKillIT {
  private static final int FILES = 10;

  @TempDir
  Path dir;

  private Process start(String query, String kind, int n) throws IOException {
    return new ProcessBuilder(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        StateKillWorker.class.getName(), dir.toString(), query, kind, Integer.toString(n))
        .redirectErrorStream(true).start();
  }

  /** Runs a child until it pauses (then kills it with SIGKILL) or ends; returns whether it was killed. */
  private boolean runAndKill(String query, String kind, int n, StringBuilder log) throws Exception {
    Process p = start(query, kind, n);
    boolean killed = false;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        log.append(line).append('\n');
        if (line.startsWith("PAUSED ")) {
          p.destroyForcibly(); // SIGKILL on Linux
          killed = true;
          break;
        }
      }
    }
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    if (!killed) {
      assertThat(p.exitValue()).as(log.toString()).isZero();
    }
    Thread.sleep(350); // the killed runner's lease expires after 300 ms
    return killed;
  }

  @ParameterizedTest
  @ValueSource(strings = {"aggregation", "dedup"})
  void killsDuringCommitsAndUploadsLeaveExactlyOnceOutput(String query) throws Exception {
    List<List<Event>> files = EventStreams.generate(31, FILES, 4);
    EventStreams.write(files, 0, FILES, (name, bytes) -> {
      try {
        Files.createDirectories(dir.resolve("landing"));
        Files.write(dir.resolve("landing").resolve(name), bytes);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    StringBuilder log = new StringBuilder();
    int kills = 0;
    // each round pauses at a write of its kind after the batches the earlier rounds committed
    String[] kinds = {"changelog", "sst", "zip"};
    for (int round = 0; round < kinds.length; round++) {
      if (runAndKill(query, kinds[round], 1 + round % 2, log)) {
        kills++;
      }
    }
    assertThat(kills).as(log.toString()).isEqualTo(kinds.length);
    assertThat(log.toString()).contains("PAUSED changelog", "PAUSED sst", "PAUSED zip");
    assertThat(runAndKill(query, "none", 0, log)).isFalse();

    List<OracleBatch> batches = EventStreams.batches(files, 1);
    try (SluiceSession session = SluiceSession.create()) {
      Set<String> late = EventStreams.lateRows(session.table(dir.resolve("late").toString())).stream()
          .map(l -> l.seq() + "@" + l.watermarkMs()).collect(Collectors.toCollection(TreeSet::new));
      Set<String> expectedLate = new TreeSet<>();
      if (query.equals("dedup")) {
        EventStreams.Deduped d = EventStreams.dedupWithinWatermark(batches);
        assertThat(StatefulOracleTest.seqs(session.table(dir.resolve("out").toString())))
            .containsExactlyInAnyOrderElementsOf(d.passed());
        d.late().forEach(l -> expectedLate.add(l.seq() + "@" + l.watermarkMs()));
      } else {
        EventStreams.Grouped g = EventStreams.groupBy(batches, 60_000, 60_000, true, EventStreams.finalWatermark(batches));
        assertThat(EventStreams.rows(session.table(dir.resolve("out").toString())).stream()
            .map(EventStreams::groupRow).toList()).containsExactlyInAnyOrderElementsOf(g.rows());
        g.late().forEach(l -> expectedLate.add(l.seq() + "@" + l.watermarkMs()));
      }
      assertThat(late).isEqualTo(expectedLate);
    }
  }
}
