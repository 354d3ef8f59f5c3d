package dev.sluice.ingestion;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Compiles one Java source with javax.tools and packs the classes into a jar, as a user's plugin jar. */
public final class PluginJars {
  private PluginJars() {}

  /**
   * @param className fully qualified, e.g. {@code com.acme.MyProcessor}
   * @return the jar
   */
  public static Path build(Path dir, String className, String source) {
    try {
      Path src = dir.resolve("src/" + className.replace('.', '/') + ".java");
      Files.createDirectories(src.getParent());
      Files.writeString(src, source);
      Path classes = Files.createDirectories(dir.resolve("classes"));
      JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
      int rc = javac.run(null, null, null, "-classpath", System.getProperty("java.class.path"), "-d",
          classes.toString(), src.toString());
      if (rc != 0) {
        throw new IllegalStateException("javac failed for " + className);
      }
      Path jar = dir.resolve(className.substring(className.lastIndexOf('.') + 1).toLowerCase() + ".jar");
      try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out);
          Stream<Path> files = Files.walk(classes)) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          j.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
          j.write(Files.readAllBytes(f));
          j.closeEntry();
        }
      }
      return jar;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A processor that counts rows per key and emits {@code (key, count)} rows; option {@code prefix}. */
  public static final String COUNTER = """
      package com.acme;

      import dev.sluice.ingestion.OutputMode;
      import dev.sluice.ingestion.stateful.*;
      import dev.sluice.table.data.Row;
      import dev.sluice.table.types.*;
      import java.util.*;

      public class KeyCounter extends StatefulProcessor<Row, Row, Row> implements ProcessorPlugin {
        private final String prefix;
        private ValueState<Long> count;

        public KeyCounter(Map<String, String> options) {
          prefix = options.getOrDefault("prefix", "");
        }

        @Override
        public Encoder<?> outputEncoder() {
          return Encoders.row(StructType.of(StructField.of("key", PrimitiveType.STRING),
              StructField.of("count", PrimitiveType.LONG)));
        }

        @Override
        public void init(OutputMode mode, TimeMode timeMode) {
          count = getHandle().getValueState("count", Encoders.LONG());
        }

        @Override
        public Iterator<Row> handleInputRows(Row key, Iterator<Row> rows, TimerValues timers) {
          long n = count.exists() ? count.get() : 0;
          while (rows.hasNext()) {
            rows.next();
            n++;
          }
          count.update(n);
          return List.of(Row.of(prefix + key.get(0), n)).iterator();
        }
      }
      """;
}
