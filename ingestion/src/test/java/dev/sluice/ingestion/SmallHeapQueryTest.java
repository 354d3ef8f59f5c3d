package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch whose rows would not fit in the heap runs in it: the query's batch (300,000 rows of nine strings,
 * some 140 MB as rows in the heap) spills past a 4 MB budget, in a child JVM of 96 MB.
 */
class SmallHeapQueryTest {
  static final StructType SCHEMA;

  static {
    List<StructField> fields = new ArrayList<>();
    for (int c = 0; c < 8; c++) {
      fields.add(StructField.of("c" + c, PrimitiveType.STRING));
    }
    SCHEMA = new StructType(fields);
  }

  private static final int FILES = 30;
  private static final int PER_FILE = 10_000;

  @TempDir Path dir;

  @Test
  void aQueryOverABatchMuchLargerThanTheHeapRunsByStreamingAndSpilling() throws Exception {
    Path landing = Files.createDirectories(dir.resolve("landing"));
    long expectedChars = 0;
    for (int f = 0; f < FILES; f++) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < PER_FILE; i++) {
        long id = (long) f * PER_FILE + i;
        sb.append('{');
        for (int c = 0; c < 8; c++) {
          String v = "v" + c + "-" + id;
          sb.append(c == 0 ? "" : ",").append("\"c").append(c).append("\":\"").append(v).append('"');
          expectedChars += c == 0 || c == 7 ? v.length() : 0;
        }
        sb.append("}\n");
      }
      Files.writeString(landing.resolve(String.format("part-%05d.jsonl", f)), sb.toString());
    }

    Process child = new ProcessBuilder(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
        "-Xmx96m", "-XX:+UseSerialGC", "-Dsluice.batch.memoryBytes=" + (4 << 20),
        "-Dsluice.spill.dir=" + dir.resolve("spill"), "-cp", System.getProperty("java.class.path"),
        SmallHeapWorker.class.getName(), dir.toString()).redirectErrorStream(true).start();
    byte[] output = child.getInputStream().readAllBytes();
    assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String log = new String(output, StandardCharsets.UTF_8);
    assertThat(child.exitValue()).as(log).isZero();
    assertThat(log).contains("DONE").doesNotContain("OutOfMemoryError");

    long rows = 0;
    long chars = 0;
    try (SluiceSession session = SluiceSession.create()) {
      Table out = session.table(dir.resolve("out").toString());
      try (CloseableIterator<Row> it = out.latestSnapshot().scan().build().rows()) {
        while (it.hasNext()) {
          Row r = it.next();
          rows++;
          chars += ((String) r.get(8)).length();
        }
      }
    }
    assertThat(rows).isEqualTo((long) FILES * PER_FILE);
    assertThat(chars).as("every row's concat(c0, c7) came through").isEqualTo(expectedChars);
  }
}
