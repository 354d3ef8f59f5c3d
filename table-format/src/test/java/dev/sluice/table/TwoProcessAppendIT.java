package dev.sluice.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.storage.LocalObjectStore;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two JVMs append to one local table at once: every append lands exactly once, versions contiguous. */
class TwoProcessAppendIT {
  @TempDir Path dir;

  @Test
  void twoProcessesAppendExactlyOnce() throws Exception {
    Table table = Table.forPath(new LocalObjectStore(dir), "t");
    table.create(Orders.SCHEMA).commit();
    int perWorker = 15;
    List<Process> processes = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      processes.add(new ProcessBuilder(
          System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
          "-Xmx256m", "-cp", System.getProperty("java.class.path"),
          AppendWorker.class.getName(), dir.toString(), Integer.toString(w), Integer.toString(perWorker))
          .redirectErrorStream(true).redirectOutput(dir.resolve("worker-" + w + ".log").toFile()).start());
    }
    for (Process p : processes) {
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as("worker exit code").isZero();
    }
    assertThat(table.latestVersion()).hasValue(2L * perWorker);
    assertThat(TableWriteTest.rows(table)).containsExactlyElementsOf(Orders.range(0, 2 * perWorker * 3));
    for (long v = 1; v <= 2L * perWorker; v++) {
      assertThat(dir.resolve(String.format("t/_delta_log/%020d.json", v))).exists();
    }
  }
}
