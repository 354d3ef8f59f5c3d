package dev.sluice.silver;

import static dev.sluice.silver.SilverFixture.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigProblem;
import dev.sluice.ingestion.PluginJars;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.stateful.Plugins;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code process:} runs a user's processor, compiled into a real jar, between bronze and the silver MERGE. */
class SilverProcessTest {
  private static final String NOT_A_PROCESSOR = """
      package com.acme;

      public class NotAProcessor {
      }
      """;

  @TempDir Path dir;

  private SluiceSession session(Path... jars) {
    return SluiceSession.builder().pluginClassLoader(Plugins.classLoader(List.of(jars), null)).build();
  }

  private static String process(String className) {
    return "    process: {class: " + className + ", keys: [order_id], output_mode: update, options: {prefix: o-}}\n";
  }

  @Test
  void theProcessorsOutputIsMergedAndItsStateLastsAcrossRuns() {
    Path jar = PluginJars.build(dir.resolve("build"), "com.acme.KeyCounter", PluginJars.COUNTER);
    try (SluiceSession session = session(jar)) {
      SilverFixture f = new SilverFixture(dir.resolve("wh"), session, process("com.acme.KeyCounter"), "{keys: [key]}");
      f.bronze(order("A", "1", "new", 1, 0), order("A", "1", "paid", 2, 0), order("B", "1", "new", 1, 0));
      f.run();
      f.bronze(order("A", "1", "shipped", 3, 0));
      f.run();

      assertThat(SilverFixture.rows(f.silver())).extracting(m -> m.get("key") + "=" + m.get("count"))
          .containsExactly("o-A=3", "o-B=1");
      assertThat(f.progress().stream().filter(p -> p.numInputRows() > 0).map(p -> p.observedMetrics()
          .get("ledger.rowsIn"))).as("the ledger counts the processor's output rows").containsExactly(2L, 1L);
    }
  }

  @Test
  void aClassNotOnTheClasspathIsAConfigErrorAtItsKey() {
    try (SluiceSession session = session()) {
      SilverFixture f = new SilverFixture(dir.resolve("wh"), session, process("com.acme.Missing"), "{keys: [key]}");
      f.bronze(order("A", "1", "new", 1, 0));
      ConfigException e = catchThrowableOfType(ConfigException.class, f::run);
      assertThat(e.problems()).extracting(ConfigProblem::path).containsExactly("pipelines[0].process.class");
      assertThat(e.getMessage()).contains("Processor class com.acme.Missing was not found on the classpath")
          .contains("--jars");
    }
  }

  @Test
  void aClassThatIsNoProcessorIsAConfigErrorAtItsKey() {
    Path jar = PluginJars.build(dir.resolve("build"), "com.acme.NotAProcessor", NOT_A_PROCESSOR);
    try (SluiceSession session = session(jar)) {
      SilverFixture f = new SilverFixture(dir.resolve("wh"), session, process("com.acme.NotAProcessor"),
          "{keys: [key]}");
      f.bronze(order("A", "1", "new", 1, 0));
      ConfigException e = catchThrowableOfType(ConfigException.class, f::run);
      assertThat(e.problems()).singleElement().satisfies(p -> {
        assertThat(p.path()).isEqualTo("pipelines[0].process.class");
        assertThat(p.message()).isEqualTo("Processor class com.acme.NotAProcessor is neither a"
            + " dev.sluice.ingestion.stateful.StatefulProcessor nor a"
            + " dev.sluice.ingestion.stateful.FlatMapGroupsWithStateFunction");
      });
    }
  }
}
