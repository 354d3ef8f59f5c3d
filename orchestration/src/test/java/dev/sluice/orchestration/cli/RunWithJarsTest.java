package dev.sluice.orchestration.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.PluginJars;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice run --jars} and the {@code plugins/} folder beside the config give {@code process.class}. */
class RunWithJarsTest {
  @TempDir Path dir;

  private record Result(int exitCode, String out, String err) {}

  private Result sluice(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = SluiceCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), false);
    return new Result(code, out.toString(), err.toString());
  }

  private Path config(String processClass) throws IOException {
    Path input = Files.createDirectories(dir.resolve("in"));
    Files.writeString(input.resolve("part-1.json"), """
        {"order_id": "A", "status": "new"}
        {"order_id": "A", "status": "paid"}
        {"order_id": "B", "status": "new"}
        """);
    Path file = dir.resolve("conf/pipelines.yaml");
    Files.createDirectories(file.getParent());
    Files.writeString(file, """
        warehouse: %s
        pipelines:
          - name: orders_bronze
            layer: bronze
            source:
              format: json
              path: %s
              schema: [{name: order_id, type: string}, {name: status, type: string}]
            sink: {table: bronze/orders}
          - name: order_counts
            layer: silver
            source: {pipeline: orders_bronze}
            process: {class: %s, keys: [order_id], output_mode: update, options: {prefix: o-}}
            sink: {table: silver/order_counts, merge: {keys: [key]}}
        """.formatted(dir.resolve("wh").toUri(), input, processClass));
    return file;
  }

  private List<String> counts() {
    try (SluiceSession session = SluiceSession.create()) {
      Table t = session.table(dir.resolve("wh/silver/order_counts").toString());
      List<String> out = new ArrayList<>();
      try (CloseableIterator<Row> it = t.latestSnapshot().scan().build().rows()) {
        it.forEachRemaining(r -> out.add(r.get(0) + "=" + r.get(1)));
      }
      out.sort(null);
      return out;
    }
  }

  @Test
  void aJarGivenWithJarsRunsTheProcessStep() throws IOException {
    Path jar = PluginJars.build(dir.resolve("build"), "com.acme.KeyCounter", PluginJars.COUNTER);
    Path config = config("com.acme.KeyCounter");

    Result r = sluice("run", config.toString(), "--available-now", "--jars", jar.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(counts()).containsExactly("o-A=2", "o-B=1");
  }

  @Test
  void aJarInThePluginsFolderIsFoundAndValidateChecksTheClass() throws IOException {
    Path jar = PluginJars.build(dir.resolve("build"), "com.acme.KeyCounter", PluginJars.COUNTER);
    Path config = config("com.acme.KeyCounter");
    Path plugins = Files.createDirectories(config.getParent().resolve("plugins"));
    Files.copy(jar, plugins.resolve("key-counter.jar"));

    Result validated = sluice("validate", config.toString());
    assertThat(validated.exitCode()).as(validated.toString()).isZero();
    Result r = sluice("run", config.toString(), "--available-now");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(counts()).containsExactly("o-A=2", "o-B=1");
  }

  @Test
  void aMissingClassFailsValidateAtItsKeyAndAMissingJarIsAUsageError() throws IOException {
    Path config = config("com.acme.Missing");
    Result validated = sluice("validate", config.toString());
    assertThat(validated.exitCode()).as(validated.toString()).isEqualTo(2);
    assertThat(validated.err()).contains("pipelines[1].process.class: Processor class com.acme.Missing was not found"
        + " on the classpath");

    Result r = sluice("run", config.toString(), "--available-now", "--jars", dir.resolve("nope.jar").toString());
    assertThat(r.exitCode()).as(r.toString()).isNotZero();
    assertThat(r.err()).contains("nope.jar does not exist; check the --jars paths");
  }
}
