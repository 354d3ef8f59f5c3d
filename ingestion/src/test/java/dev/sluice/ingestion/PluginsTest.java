package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.ingestion.stateful.Plugins;
import dev.sluice.table.data.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A processor compiled in the test into a jar, loaded by class name from a plugins folder and run. */
class PluginsTest {
  @TempDir
  Path dir;
  private final SluiceSession session = SluiceSession.create();
  private final String streamName = "plugins-" + System.nanoTime();
  private final MemoryStream input = MemoryStream.named(streamName, GroupStateTimeoutTest.EVENTS);

  @AfterEach
  void close() {
    MemoryStream.remove(streamName);
    session.close();
  }

  @Test
  void aProcessorFromAPluginJarRunsWithItsOptions() throws Exception {
    Path jar = PluginJars.build(dir.resolve("build"), "com.acme.KeyCounter", PluginJars.COUNTER);
    Path plugins = Files.createDirectories(dir.resolve("plugins"));
    Files.copy(jar, plugins.resolve("acme.jar"));
    ClassLoader loader = Plugins.classLoader(List.of(), plugins);
    assertThatThrownBy(() -> Class.forName("com.acme.KeyCounter")).isInstanceOf(ClassNotFoundException.class);

    input.addData(Row.of("a", Instant.EPOCH), Row.of("a", Instant.EPOCH), Row.of("b", Instant.EPOCH));
    BatchOutputs out = new BatchOutputs();
    StreamFrame frame = Plugins.apply(session.readStream().format("memory").option("name", streamName).load(),
        "com.acme.KeyCounter", List.of("user"), OutputMode.UPDATE, "none", Map.of("prefix", "user "), loader);
    frame.writeStream().queryName("plugin").outputMode("update").trigger(Trigger.availableNow())
        .option("checkpointLocation", dir.resolve("ck").toString()).foreachBatch(out).start().awaitTermination();
    assertThat(out.all()).containsExactlyInAnyOrder(Row.of("user a", 2L), Row.of("user b", 1L));
  }

  @Test
  void aMissingClassOrJarNamesTheFix() {
    ClassLoader loader = Plugins.classLoader(List.of(), dir.resolve("none"));
    StreamFrame events = session.readStream().format("memory").option("name", streamName).load();
    assertThatThrownBy(() -> Plugins.apply(events, "com.acme.Missing", List.of("user"), OutputMode.UPDATE, "none",
        Map.of(), loader)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("com.acme.Missing was not found").hasMessageContaining("plugins/");
    assertThatThrownBy(() -> Plugins.classLoader(List.of(dir.resolve("nope.jar")), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nope.jar does not exist");
  }
}
